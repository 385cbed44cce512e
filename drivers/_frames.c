/* The compiled frame path of drivers.protocol: the same checks as its pure-Python reference
 * (drivers/protocol.py: `check_frame`, `split_zones`), giving the same results.
 *
 * Python interface:
 *   ABI                                  the interface's number; drivers.protocol refuses a build
 *                                        whose number is not the one it expects (an older _frames.c)
 *   check(candidate) -> (version, seq, type, payload) or a rejection code
 *                                        one frame's bytes between two delimiters: COBS undone, the
 *                                        header's length and the CRC-32 checked. Codes: 1 garbage
 *                                        (not a frame's start), 2 cut short, 3 bad CRC.
 *   zones(snapshot, payload, reading) -> (scan, capability, count, readings) or None
 *                                        a SNAPSHOT's (snapshot true) or a ZONE_CHANGE's payload cut
 *                                        into its zones, each zone's bytes made a reading by
 *                                        reading(capability, bytes); None when the payload is
 *                                        malformed in any way (the reference then says how).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ABI 1
#define HEADER 5       /* version u8, seq u8, type u8, length u16 */
#define CRC_SIZE 4
#define MAX_PAYLOAD 1024
#define MAX_BODY (HEADER + MAX_PAYLOAD + CRC_SIZE)
#define SCAN 4         /* scan u16, capability u8, count u8 */
#define ZONES_MAX 255

enum { GARBAGE = 1, CUT = 2, BAD_CRC = 3 };
enum { COUNTS = 1, COLOR_COUNTS = 2, STACKS = 3 };

static uint32_t CRC_TABLE[256];

static void make_crc_table(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        CRC_TABLE[n] = c;
    }
}

/* CRC-32 of IEEE 802.3, as zlib.crc32. */
static uint32_t crc32(const unsigned char *data, Py_ssize_t size)
{
    uint32_t c = 0xFFFFFFFFu;
    for (Py_ssize_t i = 0; i < size; i++)
        c = CRC_TABLE[(c ^ data[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* COBS undone into out (room for MAX_BODY + 1 bytes); the decoded size, or -1 when it would not
 * fit (then the body is longer than any frame's: garbage). *complete: the input was not cut. */
static Py_ssize_t cobs_decode(const unsigned char *data, Py_ssize_t size, unsigned char *out, int *complete)
{
    Py_ssize_t index = 0, length = 0;
    *complete = 1;
    while (index < size) {
        unsigned code = data[index];
        Py_ssize_t end = index + code;
        Py_ssize_t from = index + 1, to = end;
        if (code == 0 || end > size) {
            to = size;
            *complete = 0;
        }
        if (length + (to - from) > MAX_BODY)
            return -1;
        memcpy(out + length, data + from, (size_t)(to - from));
        length += to - from;
        if (!*complete)
            return length;
        index = end;
        if (code != 0xFF && index < size) {
            if (length + 1 > MAX_BODY)
                return -1;
            out[length++] = 0;
        }
    }
    return length;
}

static PyObject *frames_check(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "check() takes bytes, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    unsigned char body[MAX_BODY + 1];
    int complete;
    Py_ssize_t size = cobs_decode((const unsigned char *)PyBytes_AS_STRING(arg), PyBytes_GET_SIZE(arg), body,
                                  &complete);
    if (size < 0 || size < HEADER)
        return PyLong_FromLong(GARBAGE);
    Py_ssize_t length = (Py_ssize_t)body[3] << 8 | body[4];
    Py_ssize_t expected = HEADER + length + CRC_SIZE;
    if (length > MAX_PAYLOAD || size > expected)
        return PyLong_FromLong(GARBAGE);
    if (size < expected || !complete)
        return PyLong_FromLong(CUT);
    const unsigned char *crc = body + expected - CRC_SIZE;
    uint32_t sent = (uint32_t)crc[0] << 24 | (uint32_t)crc[1] << 16 | (uint32_t)crc[2] << 8 | crc[3];
    if (sent != crc32(body, expected - CRC_SIZE))
        return PyLong_FromLong(BAD_CRC);
    return Py_BuildValue("(iiiy#)", body[0], body[1], body[2], (const char *)body + HEADER, length);
}

/* The size of the zone's bytes at data[at:], or -1 when they are not a reading of capability. */
static Py_ssize_t reading_size(int capability, const unsigned char *data, Py_ssize_t size, Py_ssize_t at)
{
    if (capability == COUNTS)
        return at < size ? 1 : -1;
    if (capability == COLOR_COUNTS)
        return at + 1 < size ? 2 : -1;
    if (at >= size)
        return -1;
    unsigned height = data[at];
    Py_ssize_t bytes = (height + 7) / 8;
    if (at + 1 + bytes > size)
        return -1;
    if (height % 8 && data[at + bytes] >> (height % 8))
        return -1; /* a colour bit above the stack's top */
    return 1 + bytes;
}

static PyObject *frames_zones(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3 || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "zones(snapshot, payload: bytes, reading)");
        return NULL;
    }
    int snapshot = PyObject_IsTrue(args[0]);
    if (snapshot < 0)
        return NULL;
    PyObject *payload = args[1], *reading = args[2];
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(payload);
    Py_ssize_t size = PyBytes_GET_SIZE(payload);
    if (size < SCAN || data[2] < COUNTS || data[2] > STACKS)
        Py_RETURN_NONE;
    int capability = data[2], count = data[3], zones = snapshot ? count : 1;
    Py_ssize_t at = SCAN, sizes[ZONES_MAX];
    for (int zone = 0; zone < zones; zone++) {
        sizes[zone] = reading_size(capability, data, size, at);
        if (sizes[zone] < 0)
            Py_RETURN_NONE;
        at += sizes[zone];
    }
    if (at != size)
        Py_RETURN_NONE;
    PyObject *readings = PyTuple_New(zones);
    PyObject *code = PyLong_FromLong(capability);
    if (readings == NULL || code == NULL)
        goto failed;
    at = SCAN;
    for (int zone = 0; zone < zones; zone++) {
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)data + at, sizes[zone]);
        if (bytes == NULL)
            goto failed;
        PyObject *call[2] = {code, bytes};
        PyObject *made = PyObject_Vectorcall(reading, call, 2, NULL);
        Py_DECREF(bytes);
        if (made == NULL)
            goto failed;
        PyTuple_SET_ITEM(readings, zone, made);
        at += sizes[zone];
    }
    PyObject *result = Py_BuildValue("(iNiN)", data[0] << 8 | data[1], code, count, readings);
    return result;
failed:
    Py_XDECREF(readings);
    Py_XDECREF(code);
    return NULL;
}

static PyMethodDef methods[] = {
    {"check", (PyCFunction)frames_check, METH_O,
     "check(candidate) -> (version, seq, type, payload), or 1 (garbage), 2 (cut short), 3 (bad CRC)."},
    {"zones", (PyCFunction)(void (*)(void))frames_zones, METH_FASTCALL,
     "zones(snapshot, payload, reading) -> (scan, capability, count, readings), or None when malformed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "drivers._frames",
    "The compiled frame path of drivers.protocol (see check_frame and split_zones there for the same in Python).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__frames(void)
{
    make_crc_table();
    PyObject *module_object = PyModule_Create(&module);
    if (module_object != NULL && PyModule_AddIntConstant(module_object, "ABI", ABI) < 0) {
        Py_DECREF(module_object);
        return NULL;
    }
    return module_object;
}
