/* The compiled step of game.bot.lockstep's eligibility traces: for each weight array, every live
 * slot's traces faded by lambda and the gradient of its game's estimate added, the same numbers to
 * the bit as numpy's lines
 *
 *     grad = back[:, :, :, None] * x[:, None, None, :]     (a bias's gradient: back alone, x = 1)
 *     trace[slots] *= lam
 *     trace[slots] += grad
 *
 * numpy makes the gradient (32 games x 5 outputs x 160 units x the inputs, float32: 26 MB for the
 * first layer of a Catchgammon network) and walks the trace three times; this walks it once. Each
 * number is worked out in float32 in numpy's order, t * lam, then b * x, then their sum, and the
 * build turns off contraction into fused multiply-adds (setup.py: -ffp-contract=off), which would
 * round once where numpy rounds twice.
 *
 * Python interface:
 *   fade_and_add(trace, back, x, slots, outputs, units, inputs, lam)
 *       trace: a writable float32 buffer of S x outputs x units x inputs (the traces of S slots);
 *       back: float32, n x outputs x units (d output / d each unit's pre-activation, per game);
 *       x: float32, n x inputs (what feeds the units, per game); slots: int64, n (each game's
 *       slot, < S); lam: the fading.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static void fade_and_add(float *trace, const float *back, const float *x, const int64_t *slots, Py_ssize_t n,
                         Py_ssize_t outputs, Py_ssize_t units, Py_ssize_t inputs, float lam)
{
    for (Py_ssize_t game = 0; game < n; game++) {
        const float *row_x = x + game * inputs;
        for (Py_ssize_t k = 0; k < outputs; k++) {
            const float *row_back = back + (game * outputs + k) * units;
            float *rows = trace + (slots[game] * outputs + k) * units * inputs;
            for (Py_ssize_t h = 0; h < units; h++) {
                const float b = row_back[h];
                float *row = rows + h * inputs;
                for (Py_ssize_t i = 0; i < inputs; i++) {
                    const float faded = row[i] * lam;
                    const float grad = b * row_x[i];
                    row[i] = faded + grad;
                }
            }
        }
    }
}

static PyObject *py_fade_and_add(PyObject *self, PyObject *args)
{
    Py_buffer trace, back, x, slots;
    Py_ssize_t outputs, units, inputs;
    float lam;
    if (!PyArg_ParseTuple(args, "w*y*y*y*nnnf:fade_and_add", &trace, &back, &x, &slots, &outputs, &units,
                          &inputs, &lam))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = slots.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t layer = outputs * units * inputs;
    if (outputs <= 0 || units <= 0 || inputs <= 0) {
        PyErr_Format(PyExc_ValueError, "outputs %zd, units %zd, inputs %zd: each must be above 0", outputs,
                     units, inputs);
    } else if (slots.len % (Py_ssize_t)sizeof(int64_t) || trace.len % (layer * (Py_ssize_t)sizeof(float))
               || back.len != n * outputs * units * (Py_ssize_t)sizeof(float)
               || x.len != n * inputs * (Py_ssize_t)sizeof(float)) {
        PyErr_Format(PyExc_ValueError,
                     "buffers of %zd, %zd, %zd and %zd bytes for %zd games of %zd x %zd x %zd float32 traces",
                     trace.len, back.len, x.len, slots.len, n, outputs, units, inputs);
    } else {
        const int64_t *slot = slots.buf;
        Py_ssize_t count = trace.len / (layer * (Py_ssize_t)sizeof(float));
        Py_ssize_t bad = -1;
        for (Py_ssize_t game = 0; game < n && bad < 0; game++)
            if (slot[game] < 0 || slot[game] >= count)
                bad = game;
        if (bad >= 0) {
            PyErr_Format(PyExc_ValueError, "game %zd's slot %lld is not one of the %zd slots", bad,
                         (long long)slot[bad], count);
        } else {
            Py_BEGIN_ALLOW_THREADS
            fade_and_add(trace.buf, back.buf, x.buf, slot, n, outputs, units, inputs, lam);
            Py_END_ALLOW_THREADS
            result = Py_NewRef(Py_None);
        }
    }
    PyBuffer_Release(&trace);
    PyBuffer_Release(&back);
    PyBuffer_Release(&x);
    PyBuffer_Release(&slots);
    return result;
}

static PyMethodDef methods[] = {
    {"fade_and_add", py_fade_and_add, METH_VARARGS,
     "Fade the given slots' traces of one weight array by lambda and add each game's gradient."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "game.bot._traces",
    "The compiled step of game.bot.lockstep's eligibility traces (see _traces.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__traces(void)
{
    return PyModule_Create(&module);
}
