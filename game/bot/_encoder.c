/* The compiled game.bot.encoding: the numbers of its numpy functions (`numpy_features`), the same
 * to the bit, for a batch of the move generator's 28-byte states, one row at a time.
 *
 * A state, from the side of the player on roll: [0] my checkers off, [1..24] one code per point
 * of my own numbering, [25] mine on the bar, [26] theirs on the bar, [27] theirs off; a point's
 * code is its count (low four bits) and its kind: mine, theirs (16), mine on top of a trapped
 * checker of theirs (32), theirs on top of a trapped one of mine (48).
 *
 * Every number is a count divided by a constant, so one correctly rounded float32 is the answer
 * whatever the precision it is worked out in (the numpy functions count the shots as integers for
 * that reason); the two squared containments are squared in double, as numpy squares them. encoding.py's docstrings say what each number means; this file only
 * computes them, in the same order:
 *   the raw board (each side's one, two, three checkers and half the rest, per point),
 *   Catchgammon's trapped checkers per point, each side's counts (`side`), whether contact is
 *   over, each side's tactics (`tactics`); then Backgammon's contact inputs (`contact_half`, each
 *   side) or Rungammon's blocking (`blocking_half`, each side).
 *
 * Python interface:
 *   features(states, out, variant, flip)
 *                                      states: N x 28 bytes; out: a writable float32 buffer of
 *                                      N x columns(variant); variant: 0 Backgammon, 1 Catchgammon,
 *                                      2 Rungammon; flip: 24 bytes, the mover's own point (0-23)
 *                                      each of the opponent's own points is (encoding._FLIP)
 *   columns(variant) -> int
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

enum { KIND = 48, COUNT = 15, THEIRS = 16, TRAPPING = 32, TRAPPED = 48 };
enum { BACKGAMMON = 0, CATCHGAMMON = 1, RUNGAMMON = 2 };
enum { POINTS = 24, STATE = 28, CHECKERS = 15 };

typedef struct {
    int mine[POINTS], theirs[POINTS];        /* free checkers per own point (a trapper counts) */
    int my_trapped[POINTS], their_trapped[POINTS];
    int my_bar, their_bar, my_off, their_off;
} Board;

static int side_columns(int variant)
{
    return 9 + (variant == BACKGAMMON ? 2 : variant == CATCHGAMMON ? 6 : 4);
}

static int tactics_columns(int variant)
{
    return 3 + (variant == CATCHGAMMON ? 2 : variant == BACKGAMMON ? 1 : 0);
}

enum { CONTACT_COLUMNS = 16, BLOCKING_COLUMNS = 10 };

static int columns(int variant)
{
    return 2 * 4 * POINTS + (variant == CATCHGAMMON ? 2 * POINTS : 0) + 2 * side_columns(variant) + 1
           + 2 * tactics_columns(variant)
           + 2 * (variant == BACKGAMMON ? CONTACT_COLUMNS : variant == RUNGAMMON ? BLOCKING_COLUMNS : 0);
}

static inline float ratio(int count, double by)
{
    return (float)(count / by);
}

static void read_board(const unsigned char *s, Board *b)
{
    for (int i = 0; i < POINTS; i++) {
        int code = s[1 + i], kind = code & KIND, n = code & COUNT;
        b->mine[i] = (kind == 0 || kind == TRAPPING) ? n : 0;
        b->theirs[i] = (kind == THEIRS || kind == TRAPPED) ? n : 0;
        b->my_trapped[i] = kind == TRAPPED && n > 0;
        b->their_trapped[i] = kind == TRAPPING && n > 0;
    }
    b->my_off = s[0], b->my_bar = s[25], b->their_bar = s[26], b->their_off = s[27];
}

/* encoding.flip: the same position read by the opponent. */
static void flip_state(const unsigned char *s, const unsigned char *order, unsigned char *out)
{
    static const int swap_kind[4] = {THEIRS, 0, TRAPPED, TRAPPING};  /* by kind / 16: 0, 16, 32, 48 */
    out[0] = s[27], out[27] = s[0], out[25] = s[26], out[26] = s[25];
    for (int i = 0; i < POINTS; i++) {
        int code = s[1 + order[i]], n = code & COUNT;
        out[1 + i] = (unsigned char)((n == 0 || code >= 64) ? 0 : (swap_kind[(code & KIND) >> 4] | n));
    }
}

/* Points a side holds (`encoding._holds`). */
static void holds(int variant, const int *checkers, const int *trapping, int *held)
{
    for (int i = 0; i < POINTS; i++)
        held[i] = variant == RUNGAMMON ? checkers[i] >= 1
                  : variant == CATCHGAMMON ? (checkers[i] >= 2 || trapping[i]) : checkers[i] >= 2;
}

/* The longest run of held points and its lowest start (`encoding._longest_run`). */
static void longest_run(const int *held, int *run, int *low)
{
    int current = 0;
    *run = 0, *low = 0;
    for (int i = 0; i < POINTS; i++) {
        current = held[i] ? current + 1 : 0;
        if (current > *run)
            *run = current, *low = i - current + 1;
    }
}

static float *unary(const int *counts, float *out)
{
    for (int i = 0; i < POINTS; i++) {
        int c = counts[i];
        out[i] = c >= 1, out[POINTS + i] = c >= 2, out[2 * POINTS + i] = c >= 3;
        out[3 * POINTS + i] = ratio(c > 3 ? c - 3 : 0, 2.0);
    }
    return out + 4 * POINTS;
}

/* `encoding._side` and the variant's own columns, for the side on roll in b. */
static float *side(int variant, const Board *b, const Board *other, float *out)
{
    int held[POINTS], mine_all[POINTS], pips = 25 * b->my_bar, home = 0, held_home = 0, blots = 0, away = b->my_bar;
    int run, low, behind = 0;
    holds(variant, b->mine, b->their_trapped, held);
    for (int i = 0; i < POINTS; i++) {
        mine_all[i] = b->mine[i] + b->my_trapped[i];
        pips += mine_all[i] * (i + 1);
        if (i < 6)
            home += mine_all[i], held_home += held[i];
        else
            away += mine_all[i];
        blots += b->mine[i] == 1 && b->theirs[i] == 0;
    }
    if (variant == RUNGAMMON) {
        int mine_ahead[POINTS];
        for (int i = 0; i < POINTS; i++)
            mine_ahead[i] = other->theirs[i] >= 1;
        longest_run(mine_ahead, &run, &low);
        for (int i = 0; i < POINTS; i++)
            behind += i > low + run - 1 ? other->mine[i] : 0;
    } else {
        longest_run(held, &run, &low);
        for (int i = 0; i < low; i++)
            behind += b->theirs[i];
        behind += b->their_bar;
    }
    *out++ = ratio(pips, 167.0), *out++ = ratio(b->my_off, 15.0), *out++ = ratio(home, 15.0);
    *out++ = ratio(held_home, 6.0), *out++ = ratio(run, 6.0);
    *out++ = ratio(run >= 6 ? behind : 0, 15.0), *out++ = ratio(run >= 4 ? behind : 0, 15.0);
    *out++ = ratio(blots, 5.0), *out++ = away == 0;
    if (variant == BACKGAMMON) {
        *out++ = b->my_bar >= 1, *out++ = ratio(b->my_bar > 1 ? b->my_bar - 1 : 0, 2.0);
    } else if (variant == CATCHGAMMON) {
        int trapped = 0, trapping = 0, far = 0, outside = 0;
        for (int i = 0; i < POINTS; i++) {
            trapped += b->my_trapped[i], trapping += b->their_trapped[i];
            far += i >= 18 ? b->my_trapped[i] : 0;
            outside += i >= 6 ? b->mine[i] : 0;
        }
        *out++ = ratio(trapped, 3.0), *out++ = ratio(trapping, 3.0), *out++ = (float)b->my_trapped[23];
        *out++ = ratio(b->mine[23], 15.0), *out++ = outside == 0 && trapped == 0, *out++ = ratio(far, 2.0);
    } else {
        int before = 0, not_passed = 0, in_last = 0;
        for (int i = 0; i < POINTS; i++) {
            before += i < 11 ? b->mine[i] : 0;
            not_passed += i >= 11 ? b->mine[i] : 0;
            in_last += i >= 18 && b->mine[i] > 0;
        }
        int passed = b->my_off > 0 || before > 0;
        *out++ = !passed && b->mine[23] + b->my_off < CHECKERS;
        *out++ = ratio(b->mine[23], 15.0), *out++ = ratio(not_passed, 15.0), *out++ = ratio(in_last, 6.0);
    }
    return out;
}

/* The distances of each of the 21 rolls, as bits (`encoding._ROLL_REACH_BITS`), and its share of 36. */
static long long reach_bits[21];
static int roll_count[21];

static void make_rolls(void)
{
    int k = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = a; b <= 6; b++, k++) {
            reach_bits[k] = a == b ? (1LL << a) | (1LL << 2 * a) | (1LL << 3 * a) | (1LL << 4 * a)
                                   : (1LL << a) | (1LL << b) | (1LL << (a + b));
            roll_count[k] = a == b ? 1 : 2;
        }
}

/* `encoding._shots`: of 36 rolls, those on which a hitter at point j reaches a target at j + d
 * (each side's points as the bits of one integer: a distance is one shift and one `and`). */
static float shots(const int *targets, const int *hitters, int points)
{
    long long target_bits = 0, hitter_bits = 0, at = 0;
    for (int i = 0; i < points; i++)
        target_bits |= (long long)(targets[i] != 0) << i, hitter_bits |= (long long)(hitters[i] != 0) << i;
    for (int d = 1; d < points && d < 25; d++)
        at |= (long long)(((target_bits >> d) & hitter_bits) != 0) << d;
    int count = 0;
    for (int k = 0; k < 21; k++)
        count += (at & reach_bits[k]) ? roll_count[k] : 0;
    return ratio(count, 36.0);
}

/* `encoding._tactics`, for the side on roll in b. */
static float *tactics(int variant, const Board *b, float *out)
{
    int blocked[POINTS], held[POINTS], open_moves = 0, walled = 0, held_count = 0, rear = -1;
    holds(variant, b->theirs, b->my_trapped, blocked);
    holds(variant, b->mine, b->their_trapped, held);
    for (int i = 0; i < POINTS; i++) {
        held_count += held[i];
        if (b->mine[i] > 0) {
            rear = i;
            for (int d = 1; d <= 6 && d <= i; d++)
                open_moves += !blocked[i - d];
        }
    }
    for (int d = 1; d <= 6; d++)
        walled += rear - d >= 0 && blocked[rear - d];
    *out++ = ratio(open_moves, 30.0), *out++ = ratio(walled, 6.0), *out++ = ratio(held_count, 12.0);
    if (variant == CATCHGAMMON) {
        int blots[POINTS], hitters[POINTS], mother[POINTS] = {0};
        for (int i = 0; i < POINTS; i++)
            blots[i] = b->mine[i] == 1 && !b->their_trapped[i], hitters[i] = b->theirs[i] > 0;
        mother[23] = blots[23];
        *out++ = shots(blots, hitters, POINTS), *out++ = shots(mother, hitters, POINTS);
    } else if (variant == BACKGAMMON) {
        /* Their checkers on the bar hit too, entering from the point below my 1-point. */
        int blots[POINTS + 1] = {0}, hitters[POINTS + 1];
        hitters[0] = b->their_bar > 0;
        for (int i = 0; i < POINTS; i++)
            blots[i + 1] = b->mine[i] == 1, hitters[i + 1] = b->theirs[i] > 0;
        *out++ = shots(blots, hitters, POINTS + 1);
    }
    return out;
}

/* `encoding._contact`: one of my checkers still has an opposing one ahead of it. */
static int contact(const Board *b)
{
    int my_back = 0, their_back = 25;
    for (int i = 0; i < POINTS; i++) {
        if (b->mine[i] + b->my_trapped[i] > 0)
            my_back = i + 1;
        if (their_back == 25 && b->theirs[i] + b->their_trapped[i] > 0)
            their_back = i + 1;
    }
    my_back += b->my_bar > 0 ? 25 : 0;
    their_back -= b->their_bar > 0 ? 25 : 0;
    return my_back > their_back;
}

static int race_free(const Board *b)  /* Rungammon: every checker past the opponent's start */
{
    for (int i = 11; i < POINTS; i++)
        if (b->mine[i])
            return 0;
    return 1;
}

/* GNU Backgammon's escapes (`encoding._escape_tables`): for each 12-bit set of blocked points ahead
 * of a checker (bit k: the point k + 1 pips ahead), the rolls of 36 that carry it a + b pips, open,
 * by either order of the dice; and of those, the ones landing beyond the first blocked point. */
static short escapes_of[4096], escapes_beyond[4096];

static void make_escapes(void)
{
    for (int mask = 0; mask < 4096; mask++) {
        int first = 12, escapes = 0, beyond = 0;
        for (int k = 0; k < 12; k++)
            if (mask >> k & 1) {
                first = k;
                break;
            }
        for (int a = 1; a <= 6; a++)
            for (int b = 1; b <= a; b++) {
                int open = !(mask >> (a + b - 1) & 1) && !((mask >> (a - 1) & 1) && (mask >> (b - 1) & 1));
                int ways = a == b ? 1 : 2;
                escapes += ways * open, beyond += ways * (open && a + b - 1 > first);
            }
        escapes_of[mask] = (short)escapes, escapes_beyond[mask] = (short)beyond;
    }
}

/* `encoding._escape_windows`: the tables' index for a checker on own point p (25: the bar). */
static int window(const int *blocked, int p)
{
    int mask = 0, seen = p - 1 < 12 ? p - 1 : 12;
    for (int k = 0; k < seen; k++)
        mask |= blocked[p - 2 - k] << k;
    return mask;
}

/* `encoding._timing`: the pips a side can play before it must break its points. */
static int timing(const int *mine, int their_back)
{
    int limit = their_back > 11 ? their_back : 11;
    int bar = mine[24] * (1 + (their_back >= 24)), checkers = bar, pips = 24 * bar;
    for (int i = 0; i < POINTS; i++) {
        int on = mine[i], spares = on > 2 ? on - 2 : on == 1;
        int counted = (i > limit ? spares : 0) + (i >= 6 && i <= limit ? on : 0);
        checkers += counted, pips += counted * i;
    }
    for (int i = 5; i >= 0; i--) {
        int here = mine[i], over = here > 2 ? here - 2 : 0, gap = 2 - here;
        pips += i * over, checkers += over;
        if (here < 2 && checkers >= gap)
            pips -= i * gap, checkers -= gap;
    }
    return pips > 0 ? pips : 0;
}

/* `encoding._contact_half`: `mine` and `theirs` 25 counts in each side's own numbering (24: the bar),
 * `blocking_me` their points in mine, `blocking_them` mine in theirs. */
static float *contact_half(const int *mine, const int *theirs, const int *blocking_me, const int *blocking_them,
                           float *out)
{
    int their_rear = -1;
    for (int i = 0; i <= POINTS; i++)
        if (theirs[i] > 0)
            their_rear = i;
    int their_back = 23 - their_rear, their_point = their_rear + 1;
    int their_escapes[26];
    for (int p = 0; p < 26; p++)
        their_escapes[p] = escapes_of[window(blocking_them, p)];
    int back_escapes = their_escapes[their_point], back_beyond = escapes_beyond[window(blocking_them, their_point)];
    int fewest_rear = 36, fewest = 36;
    for (int p = 16; p < 26; p++) {
        if (p <= their_point && their_escapes[p] < fewest_rear)
            fewest_rear = their_escapes[p];
        if (p <= 24 && their_escapes[p] < fewest)
            fewest = their_escapes[p];
    }
    int contain_rear = 36 - fewest_rear, contain = 36 - fewest;
    int mobility = 0, break_contact = 0, free_pips = 0, back = -1, back_anchor = -1, total = 0, weighted = 0;
    int in_their_home = 99, in_their_outfield = -1, back_anchors = 0, back_game_checkers = 0;
    for (int i = 0; i <= POINTS; i++) {
        int m = mine[i];
        mobility += (i > 5 ? i - 5 : 0) * m * escapes_of[window(blocking_me, i + 1)];
        break_contact += i > their_back ? m * (i + 1 - their_back) : 0;
        free_pips += i < their_back ? m * (i + 1) : 0;
        if (m > 0)
            back = i;
        total += m, weighted += m * i;
        back_game_checkers += i >= 18 ? m : 0;
        if (i < POINTS && m >= 2) {
            back_anchor = i;
            if (i >= 18 && in_their_home == 99)
                in_their_home = i;
            if (i >= 12 && i < 18)
                in_their_outfield = i;
            back_anchors += i >= 18;
        }
    }
    int forward = in_their_home < 99 ? 24 - in_their_home : in_their_outfield >= 0 ? 24 - in_their_outfield : 0;
    int mean = total > 0 ? (weighted + total - 1) / total : 0;  /* rounded up */
    int spread_count = 0, spread = 0;
    for (int i = 0; i <= POINTS; i++)
        if (i > mean)
            spread_count += mine[i], spread += mine[i] * (i - mean) * (i - mean);
    int moment = spread_count > 0 ? (spread + spread_count - 1) / spread_count : 0;
    double rear_share = contain_rear / 36.0, share = contain / 36.0;
    *out++ = ratio(back_escapes, 36.0), *out++ = ratio(back_beyond, 36.0);
    *out++ = (float)rear_share, *out++ = (float)(rear_share * rear_share);
    *out++ = (float)share, *out++ = (float)(share * share);
    *out++ = ratio(mobility, 3600.0), *out++ = ratio(break_contact, 167.0), *out++ = ratio(free_pips, 100.0);
    *out++ = ratio(timing(mine, their_back), 100.0), *out++ = ratio(back, 24.0), *out++ = ratio(back_anchor, 24.0);
    *out++ = forward == 0 ? 2.0f : ratio(forward, 6.0), *out++ = ratio(moment, 400.0);
    *out++ = back_anchors > 1 ? ratio(back_game_checkers - 3, 4.0) : 0.0f;
    *out++ = back_anchors == 1 ? ratio(back_game_checkers, 8.0) : 0.0f;
    return out;
}

/* `encoding._containment`: the contact inputs of the side on roll in b, then of the other. */
static float *containment(const Board *b, const Board *other, float *out)
{
    int mine[POINTS + 1], theirs[POINTS + 1], blocking_me[POINTS], blocking_them[POINTS];
    for (int i = 0; i < POINTS; i++) {
        mine[i] = b->mine[i], theirs[i] = other->mine[i];
        blocking_me[i] = b->theirs[i] >= 2, blocking_them[i] = other->theirs[i] >= 2;
    }
    mine[POINTS] = b->my_bar, theirs[POINTS] = other->my_bar;
    out = contact_half(mine, theirs, blocking_me, blocking_them, out);
    return contact_half(theirs, mine, blocking_them, blocking_me, out);
}

/* `encoding._blocking`, for the side on roll in b: how the opponent's points block its checkers. */
static float *blocking_half(const Board *b, float *out)
{
    const int *mine = b->mine;
    int blocked[POINTS], escapes[POINTS], behind[POINTS], their_low = 24, rear = -1;
    for (int i = 0; i < POINTS; i++)
        blocked[i] = b->theirs[i] >= 1;
    for (int i = 0; i < POINTS; i++) {
        escapes[i] = escapes_of[window(blocked, i + 1)];
        if (blocked[i] && their_low == 24)
            their_low = i;
        if (mine[i] > 0)
            rear = i;
    }
    int fewest = 36, failing = 0, free_pips = 0, spare_pips = 0, walled_in = 0, ahead[POINTS];
    for (int i = 0; i < POINTS; i++) {
        behind[i] = i > their_low && mine[i] > 0;
        int walled = 1;
        for (int d = 1; d <= 6; d++)
            walled &= i >= d && blocked[i - d];
        if (behind[i]) {
            fewest = escapes[i] < fewest ? escapes[i] : fewest;
            failing += mine[i] * (36 - escapes[i]);
            spare_pips += (mine[i] > 1 ? mine[i] - 1 : 0) * (i + 1);
            walled_in += walled ? mine[i] : 0;
        } else {
            free_pips += mine[i] * (i + 1);
        }
        ahead[i] = blocked[i] && i < rear;
    }
    int at = rear > 0 ? rear : 0, in_contact = behind[at];
    int rear_escapes = in_contact ? escapes[at] : 36;
    int rear_beyond = in_contact ? escapes_beyond[window(blocked, at + 1)] : 36;
    int run, low;
    longest_run(ahead, &run, &low);
    int top = low + run - 1, gap = run > 0 ? rear - top : 0, caught = 0;
    if (run >= 3)
        for (int i = top + 1; i < POINTS; i++)
            caught += mine[i];
    *out++ = ratio(rear_escapes, 36.0), *out++ = ratio(rear_beyond, 36.0), *out++ = ratio(fewest, 36.0);
    *out++ = ratio(failing, 540.0), *out++ = ratio(run, 6.0), *out++ = ratio(gap < 12 ? gap : 12, 12.0);
    *out++ = ratio(caught, 15.0), *out++ = ratio(free_pips, 360.0), *out++ = ratio(spare_pips, 360.0);
    *out++ = ratio(walled_in, 15.0);
    return out;
}

static void encode_row(int variant, const unsigned char *state, const unsigned char *order, float *out)
{
    unsigned char flipped[STATE];
    Board b, other;
    read_board(state, &b);
    flip_state(state, order, flipped);
    read_board(flipped, &other);
    out = unary(b.mine, out);
    out = unary(b.theirs, out);
    if (variant == CATCHGAMMON) {
        for (int i = 0; i < POINTS; i++)
            out[i] = (float)b.my_trapped[i], out[POINTS + i] = (float)b.their_trapped[i];
        out += 2 * POINTS;
    }
    out = side(variant, &b, &other, out);
    out = side(variant, &other, &b, out);
    *out++ = variant == RUNGAMMON ? race_free(&b) && race_free(&other) : !contact(&b);
    out = tactics(variant, &b, out);
    out = tactics(variant, &other, out);
    if (variant == BACKGAMMON) {
        containment(&b, &other, out);
    } else if (variant == RUNGAMMON) {
        out = blocking_half(&b, out);
        blocking_half(&other, out);
    }
}

static PyObject *py_columns(PyObject *self, PyObject *args)
{
    int variant;
    if (!PyArg_ParseTuple(args, "i:columns", &variant))
        return NULL;
    if (variant < BACKGAMMON || variant > RUNGAMMON)
        return PyErr_Format(PyExc_ValueError, "no variant %d (0 Backgammon, 1 Catchgammon, 2 Rungammon)", variant);
    return PyLong_FromLong(columns(variant));
}

static PyObject *py_features(PyObject *self, PyObject *args)
{
    Py_buffer states, out, order;
    int variant;
    if (!PyArg_ParseTuple(args, "y*w*iy*:features", &states, &out, &variant, &order))
        return NULL;
    PyObject *result = NULL;
    if (variant < BACKGAMMON || variant > RUNGAMMON) {
        PyErr_Format(PyExc_ValueError, "no variant %d (0 Backgammon, 1 Catchgammon, 2 Rungammon)", variant);
    } else if (states.len % STATE || order.len != POINTS) {
        PyErr_Format(PyExc_ValueError, "states of %zd bytes (not rows of %d) or a flip of %zd (not %d)",
                     states.len, STATE, order.len, POINTS);
    } else if (out.len != states.len / STATE * columns(variant) * (Py_ssize_t)sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "an output of %zd bytes for %zd rows of %d float32 columns",
                     out.len, states.len / STATE, columns(variant));
    } else {
        const unsigned char *rows = states.buf, *flip = order.buf;
        float *into = out.buf;
        Py_ssize_t n = states.len / STATE;
        int width = columns(variant);
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t r = 0; r < n; r++)
            encode_row(variant, rows + r * STATE, flip, into + r * width);
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&states);
    PyBuffer_Release(&out);
    PyBuffer_Release(&order);
    return result;
}

static PyMethodDef methods[] = {
    {"features", py_features, METH_VARARGS, "Write the network's inputs of each 28-byte state into a float32 buffer."},
    {"columns", py_columns, METH_VARARGS, "How many inputs a variant's network has."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "game.bot._encoder",
    "The compiled game.bot.encoding (see _encoder.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__encoder(void)
{
    make_rolls();
    make_escapes();
    return PyModule_Create(&module);
}
