/* The compiled kernel of game.movegen: the same search as game/movegen/pure.py, over the same
 * 28-byte states, giving the same plays in the same order.
 *
 * A state, from the side of the player on roll: [0] my checkers off, [1..24] one code per
 * point of my own numbering, [25] mine on the bar, [26] theirs on the bar, [27] theirs off
 * (game/movegen/state.py says what a point's code means). A move is 3 bytes: source (25 =
 * bar), target (0 = off), 1 for a hit or a trap.
 *
 * The per-code tables (which checkers may leave a point, what a point becomes when one leaves
 * or one lands, by variant) are the pure kernel's, handed over once by configure(): the rules
 * of a single point have one home. This file holds what the pure kernel's loops do:
 *   single_moves()  each legal move of one checker by one die;
 *   search_run()    every order of the dice, "as many dice as possible, the larger if only one",
 *                   one play per resulting state, first found first;
 *   prime_allowed() the Rungammon prime rules, judged on a play's result;
 *   mother_trapped() the mother-checker rule's move that ends the game at once.
 *
 * Python interface (rules: the variant, 0 Backgammon, 1 Catchgammon, 2 Rungammon, plus 4 for the
 * mother-checker rule, as game.movegen.state.kernel_rules makes it):
 *   configure(free, leave, arrive_backgammon, arrive_catchgammon, arrive_rungammon,
 *             has_mine, mine_trapped, has_theirs,       64-byte tables, 255 = none
 *             variants, colours, own_to_index)          for encode(): the Variant and Color
 *                                                       members, and where each own point is
 *   encode(position) -> state
 *   encode_document(doc) -> state or None            a position document in its usual form
 *                                                       (game.movegen.state.encode_document)
 *   plays(state, rules, d1, d2) -> (states, moves)      tuples of bytes, one item a play
 *   count(state, rules, d1, d2) -> int
 *   steps(state, rules, die) -> ((state, move), ...)
 *   walk(root, rules, most) -> (moves, first, levels)  every single move of the dice left (root: a
 *                                                       state then the dice, a byte each), most deep
 *   gather(state, tables, order) -> tuple             tables[k][state[order[k]]] for each k: a
 *                                                       position's stacks, or what sensors see
 *   index(root, rules, most, results, tables, order, hits) -> (legal, partial)
 *                                                       the results' indexes and the boards on the
 *                                                       way to them by what the sensors see of them
 *   turn(state, rules, d1, d2, tables, order, hits) -> (states, moves, legal, partial)
 *                                                       plays() then index() of the roll, its plays
 *                                                       found by the index's own walk
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SIZE 28
#define MY_OFF 0
#define MY_BAR 25
#define THEIR_BAR 26
#define THEIR_OFF 27
#define BAR 25
#define THEIRS 16
#define TRAPPING 32
#define TRAPPED 48
#define CHECKERS 15
#define NONE 255
#define CODES 64
#define MAX_STEPS 25 /* 24 points, or the one entry from the bar */

static const unsigned char NO_MOVES[4 * 3] = {0};

enum { BACKGAMMON, CATCHGAMMON, RUNGAMMON, VARIANTS };
#define VARIANT_BITS 3
#define MOTHER_CHECKER 4 /* the rules number's bit for the mother-checker rule (game.movegen.state) */

static unsigned char FREE[CODES], LEAVE[CODES], ARRIVE[VARIANTS][CODES];
static unsigned char HAS_MINE[CODES], MINE_TRAPPED[CODES], HAS_THEIRS[CODES];
static int configured = 0;
/* For encode(): the Variant members in kernel order, White and Black, and for each variant and
 * colour the index in Position.points of each own point 1-24. */
static PyObject *VARIANT_MEMBERS[VARIANTS], *COLOUR_MEMBERS[2];
static unsigned char OWN_TO_INDEX[VARIANTS][2][25];
static PyObject *ATTRIBUTE[5]; /* "variant", "turn", "points", "bar", "off", interned */

/* -- single moves ------------------------------------------------------------------------ */

typedef struct {
    unsigned char state[SIZE];
    unsigned char move[3];
} Step;

static void put_move(Step *step, int source, int target, int hit)
{
    step->move[0] = (unsigned char)source;
    step->move[1] = (unsigned char)target;
    step->move[2] = (unsigned char)hit;
}

static int any_point(const unsigned char *s, int from, int to, const unsigned char *table)
{
    for (int p = from; p <= to; p++)
        if (table[s[p]])
            return 1;
    return 0;
}

/* A node of a walk is a state's SIZE bytes and the dice left after them. Playing the i-th of the
   `left` dice: the dice that remain, written after `child`'s SIZE bytes; returns how many, or -1
   when the same die stands earlier among them (each die once, in the order left). */
static int dice_left_after(const unsigned char *node, int left, int i, unsigned char *child)
{
    for (int j = 0; j < i; j++)
        if (node[SIZE + j] == node[SIZE + i])
            return -1;
    int rest = 0;
    for (int j = 0; j < left; j++)
        if (j != i)
            child[SIZE + rest++] = node[SIZE + j];
    return rest;
}

/* Each legal move of one checker by `die`, written to `out` in the pure kernel's order (the bar
 * first, then from point 24 down); returns how many. */
static int single_moves(const unsigned char *s, int variant, int die, Step *out)
{
    const unsigned char *arrive = ARRIVE[variant];
    int n = 0;
    if (variant == BACKGAMMON && s[MY_BAR]) {
        int q = BAR - die, code = s[q];
        if (arrive[code] != NONE) {
            Step *step = &out[n++];
            memcpy(step->state, s, SIZE);
            step->state[MY_BAR]--;
            step->state[q] = arrive[code];
            int hit = code == THEIRS + 1;
            step->state[THEIR_BAR] += hit;
            put_move(step, BAR, q, hit);
        }
        return n;
    }
    int home = !any_point(s, 7, 24, HAS_MINE);
    if (variant == CATCHGAMMON && home)
        home = !any_point(s, 1, 6, MINE_TRAPPED); /* a trapped checker keeps its owner from bearing off */
    int start_closed = 0;
    if (variant == RUNGAMMON) { /* one checker leaves the start until one has passed the opponent's */
        int passed = s[MY_OFF] > 0 || any_point(s, 1, 11, HAS_MINE);
        start_closed = !passed && FREE[s[24]] + s[MY_OFF] < CHECKERS;
    }
    int highest = 0;
    for (int p = 6; home && p >= 1 && !highest; p--)
        if (HAS_MINE[s[p]])
            highest = p;
    for (int p = 24; p >= 1; p--) {
        int code = s[p];
        if (!FREE[code] || (p == 24 && start_closed))
            continue;
        int q = p - die;
        if (q > 0) {
            int target = s[q];
            if (arrive[target] == NONE)
                continue;
            Step *step = &out[n++];
            memcpy(step->state, s, SIZE);
            step->state[p] = LEAVE[code];
            step->state[q] = arrive[target];
            int hit = target == THEIRS + 1;
            if (hit && variant == BACKGAMMON)
                step->state[THEIR_BAR]++;
            put_move(step, p, q, hit);
        }
        else if (home && (q == 0 || p == highest)) {
            Step *step = &out[n++];
            memcpy(step->state, s, SIZE);
            step->state[p] = LEAVE[code];
            step->state[MY_OFF]++;
            put_move(step, p, 0, 0);
        }
    }
    return n;
}

/* -- the Rungammon prime rules --------------------------------------------------------------- */

/* Whether six of `held` (24 flags) in a row start at index i. */
static int six_from(const unsigned char *held, int i)
{
    for (int k = i; k < i + 6; k++)
        if (!held[k])
            return 0;
    return 1;
}

static int prime_allowed(const unsigned char *s)
{
    unsigned char held[24], theirs[24]; /* along the opponent's path: index q - 1 for their point q */
    int start_table = 1, count = 0;
    for (int p = 19; p <= 24; p++)
        start_table = start_table && HAS_MINE[s[p]];
    if (start_table)
        return 0; /* all six points of the own starting table */
    for (int p = 1; p <= 24; p++)
        count += HAS_MINE[s[p]];
    if (count < 6)
        return 1;
    for (int i = 0; i < 24; i++) { /* my own point p is their own point p - 12 (or p + 12) */
        int p = (i + 12) % 24 + 1;
        held[i] = HAS_MINE[s[p]];
        theirs[i] = HAS_THEIRS[s[p]];
    }
    int lowest = -1, highest = -1;
    for (int i = 0; i < 24; i++)
        if (theirs[i]) {
            if (lowest < 0)
                lowest = i;
            highest = i;
        }
    for (int start = 0; start + 6 <= 24; start++) {
        if (!six_from(held, start))
            continue;
        int behind = highest > start + 5;
        int ahead = s[THEIR_OFF] > 0 || (lowest >= 0 && lowest < start); /* borne off counts as ahead */
        if (behind && !ahead)
            return 0; /* a prime with opponents behind it and none ahead */
    }
    return 1;
}

static int allowed(int variant, const unsigned char *s)
{
    return variant != RUNGAMMON || prime_allowed(s);
}

/* -- a set of states in the order found ------------------------------------------------------ */

typedef struct {
    unsigned char state[SIZE];
    unsigned char moves[4 * 3]; /* the moves that made it, `made` of them */
    unsigned char made;
} Node;

typedef struct {
    Node *nodes; /* in the order found */
    Py_ssize_t count, capacity;
    Py_ssize_t *slots; /* open addressing: 1 + index into nodes, 0 for an empty slot */
    size_t mask;       /* slots has mask + 1 entries, a power of two */
    int depth;
} Level;

static uint64_t hash_state(const unsigned char *s)
{
    uint64_t part[4] = {0, 0, 0, 0}, h = 0x9E3779B97F4A7C15ULL;
    memcpy(part, s, SIZE);
    for (int i = 0; i < 4; i++) {
        h ^= part[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static int level_init(Level *level, int depth)
{
    level->count = 0;
    level->capacity = 32;
    level->mask = 63;
    level->depth = depth;
    level->nodes = PyMem_New(Node, (size_t)level->capacity);
    level->slots = PyMem_New(Py_ssize_t, level->mask + 1);
    if (level->nodes == NULL || level->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(level->slots, 0, (level->mask + 1) * sizeof(Py_ssize_t));
    return 0;
}

static void level_free(Level *level)
{
    PyMem_Free(level->nodes);
    PyMem_Free(level->slots);
    level->nodes = NULL;
    level->slots = NULL;
}

static Py_ssize_t *level_slot(const Level *level, const unsigned char *s)
{
    size_t i = (size_t)hash_state(s) & level->mask;
    for (;;) {
        Py_ssize_t k = level->slots[i];
        if (k == 0 || memcmp(level->nodes[k - 1].state, s, SIZE) == 0)
            return &level->slots[i];
        i = (i + 1) & level->mask;
    }
}

/* Room for one more node, the slots at most half full. */
static int level_reserve(Level *level)
{
    if (level->count == level->capacity) {
        Node *nodes = level->nodes;
        PyMem_Resize(nodes, Node, (size_t)level->capacity * 2);
        if (nodes == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        level->nodes = nodes;
        level->capacity *= 2;
    }
    if ((size_t)(level->count + 1) * 2 <= level->mask + 1)
        return 0;
    size_t mask = level->mask * 2 + 1;
    Py_ssize_t *slots = PyMem_New(Py_ssize_t, mask + 1);
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(slots, 0, (mask + 1) * sizeof(Py_ssize_t));
    PyMem_Free(level->slots);
    level->slots = slots;
    level->mask = mask;
    for (Py_ssize_t k = 0; k < level->count; k++)
        *level_slot(level, level->nodes[k].state) = k + 1;
    return 0;
}

/* Adds state `s`, made by the moves `before` (depth - 1 of them) then `move`, unless the level
 * has it: 1 added, 0 already there, -1 out of memory (the exception set). */
static int level_add(Level *level, const unsigned char *s, const unsigned char *before, const unsigned char *move)
{
    if (level_reserve(level) < 0)
        return -1;
    Py_ssize_t *slot = level_slot(level, s);
    if (*slot)
        return 0;
    Node *node = &level->nodes[level->count++];
    memcpy(node->state, s, SIZE);
    node->made = (unsigned char)level->depth;
    if (level->depth > 0) {
        memcpy(node->moves, before, 3 * (size_t)(level->depth - 1));
        memcpy(node->moves + 3 * (level->depth - 1), move, 3);
    }
    *slot = level->count;
    return 1;
}

/* Adds to the level of plays that ended the game (of any length) state `s`, made by the `made` - 1
 * moves `before` then `move`, unless it is there: as level_add. */
static int ended_add(Level *level, const unsigned char *s, const unsigned char *before, int made,
                     const unsigned char *move)
{
    level->depth = made;
    return level_add(level, s, before, move);
}

/* Whether `move`, which made `s`, trapped the opponent's mother checker while mine is free: a trap
 * on my own 1-point (the opponent's start), my own 24-point holding no checker of mine trapped. */
static int mother_trapped(const unsigned char *s, const unsigned char *move)
{
    return move[1] == 1 && move[2] == 1 && !(s[24] > TRAPPED && s[24] < CODES);
}

static Py_ssize_t level_allowed(const Level *level, int variant)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t k = 0; k < level->count; k++)
        n += allowed(variant, level->nodes[k].state);
    return n;
}

/* -- the search over dice orders --------------------------------------------------------------- */

#define LEVELS 6
#define ENDED 5 /* the level of plays that ended the game at once (the mother checker), kept after the others */

typedef struct {
    Level levels[LEVELS];
    Level *plays; /* the level the legal plays are in (their number: `legal`), NULL for none */
    Py_ssize_t legal;
    int mother; /* the mother-checker rule: a move trapping the opponent's mother ends the play */
} Search;

static void search_free(Search *search)
{
    for (int i = 0; i < LEVELS; i++)
        level_free(&search->levels[i]);
}

/* Doubles: each level one die deeper, every move from every state of the level above. */
static int search_doubles(Search *search, const unsigned char *start, int variant, int die)
{
    Level *levels = search->levels;
    Step steps[MAX_STEPS];
        if (level_add(&levels[0], start, NO_MOVES, NO_MOVES) < 0)
        return -1;
    for (int depth = 1; depth <= 4; depth++) {
        Level *above = &levels[depth - 1], *level = &levels[depth], *ended = &levels[ENDED];
        Py_ssize_t ending = ended->count;
        for (Py_ssize_t k = 0; k < above->count; k++) {
            int n = single_moves(above->nodes[k].state, variant, die, steps);
            for (int i = 0; i < n; i++) {
                int added = search->mother && mother_trapped(steps[i].state, steps[i].move)
                    ? ended_add(ended, steps[i].state, above->nodes[k].moves, depth, steps[i].move)
                    : level_add(level, steps[i].state, above->nodes[k].moves, steps[i].move);
                if (added < 0)
                    return -1;
            }
        }
        if (level->count == 0) {
            if (ended->count > ending) { /* this die could be played, by ending the game: stopping short is no play */
                search->plays = NULL;
                search->legal = 0;
            }
            break;
        }
        Py_ssize_t legal = level_allowed(level, variant);
        if (legal) {
            search->plays = level;
            search->legal = legal;
        }
    }
    return 0;
}

/* Two different dice: the larger first then the smaller, and the other way. */
static int search_two(Search *search, const unsigned char *start, int variant, int high, int low)
{
    Level *only[2] = {&search->levels[1], &search->levels[2]}, *both = &search->levels[3];
    Level *ended = &search->levels[ENDED];
    Step first_steps[MAX_STEPS], second_steps[MAX_STEPS];
    int high_ends = 0;
    for (int order = 0; order < 2; order++) {
        int first = order ? low : high, second = order ? high : low;
        int n = single_moves(start, variant, first, first_steps);
        for (int i = 0; i < n; i++) {
            if (search->mother && mother_trapped(first_steps[i].state, first_steps[i].move)) {
                if (ended_add(ended, first_steps[i].state, NO_MOVES, 1, first_steps[i].move) < 0)
                    return -1;
                high_ends |= order == 0;
                continue;
            }
            int added = level_add(only[order], first_steps[i].state, NO_MOVES, first_steps[i].move);
            if (added < 0)
                return -1;
            if (!added)
                continue;
            int m = single_moves(first_steps[i].state, variant, second, second_steps);
            for (int j = 0; j < m; j++)
                if (level_add(both, second_steps[j].state, first_steps[i].move, second_steps[j].move) < 0)
                    return -1;
        }
    }
    Level *choice[3] = {both, only[0], only[1]};
    for (int i = 0; i < (high_ends ? 2 : 3); i++) { /* the larger die played by ending the game rules out the smaller alone */
        Py_ssize_t legal = level_allowed(choice[i], variant);
        if (legal) {
            search->plays = choice[i];
            search->legal = legal;
            break;
        }
    }
    return 0;
}

/* Fills `search` (free it with search_free whatever happens): 0, or -1 with the exception set. */
static int search_run(Search *search, const unsigned char *start, int rules, int d1, int d2)
{
    int variant = rules & VARIANT_BITS;
    search->mother = (rules & MOTHER_CHECKER) != 0;
    static const int depths[LEVELS] = {0, 1, 2, 3, 4, 0};
    static const int two_depths[LEVELS] = {0, 1, 1, 2, 0, 0};
    search->plays = NULL;
    search->legal = 0;
    for (int i = 0; i < LEVELS; i++)
        search->levels[i].nodes = NULL, search->levels[i].slots = NULL;
    for (int i = 0; i < LEVELS; i++)
        if (level_init(&search->levels[i], d1 == d2 ? depths[i] : two_depths[i]) < 0)
            return -1;
    if (d1 == d2)
        return search_doubles(search, start, variant, d1);
    return search_two(search, start, variant, d1 > d2 ? d1 : d2, d1 > d2 ? d2 : d1);
}

/* -- a Position as a state ------------------------------------------------------------------- */

/* The code of one stack ("", "www", "bww": bottom to top) for the player whose checkers are `mine`. */
static int stack_code(PyObject *stack, Py_UCS4 mine, unsigned char *code)
{
    if (!PyUnicode_Check(stack) || PyUnicode_READY(stack) < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "encode(): a stack is a str, got %R", stack);
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(stack);
    if (n == 0) {
        *code = 0;
        return 0;
    }
    int kind = PyUnicode_KIND(stack);
    const void *data = PyUnicode_DATA(stack);
    Py_UCS4 bottom = PyUnicode_READ(kind, data, 0), top = PyUnicode_READ(kind, data, n - 1);
    int trapped = bottom != top, valid = (top == 'w' || top == 'b') && (bottom == 'w' || bottom == 'b');
    for (Py_ssize_t i = 1; valid && i < n; i++)
        valid = PyUnicode_READ(kind, data, i) == top; /* one trapped checker at most, at the bottom */
    if (!valid || n - trapped > CHECKERS) {
        PyErr_Format(PyExc_ValueError, "encode(): %R is not a stack of a position", stack);
        return -1;
    }
    *code = (unsigned char)(n - trapped + (top == mine ? 0 : THEIRS) + (trapped ? TRAPPING : 0));
    return 0;
}

/* A (white, black) pair of counts 0-15, as (mine, theirs). */
static int counts(PyObject *pair, int me, unsigned char *mine, unsigned char *theirs)
{
    long value[2];
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_Format(PyExc_TypeError, "encode(): bar and off are (white, black) pairs, got %R", pair);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        value[i] = PyLong_AsLong(PyTuple_GET_ITEM(pair, i));
        if (value[i] == -1 && PyErr_Occurred())
            return -1;
        if (value[i] < 0 || value[i] > CHECKERS) {
            PyErr_Format(PyExc_ValueError, "encode(): a count of checkers is 0-15, got %R", pair);
            return -1;
        }
    }
    *mine = (unsigned char)value[me];
    *theirs = (unsigned char)value[1 - me];
    return 0;
}

static int encode_into(PyObject *const *field, unsigned char *state)
{
    int variant = -1, me = -1;
    for (int v = 0; v < VARIANTS; v++)
        if (field[0] == VARIANT_MEMBERS[v])
            variant = v;
    for (int c = 0; c < 2; c++)
        if (field[1] == COLOUR_MEMBERS[c])
            me = c;
    if (variant < 0 || me < 0) {
        PyErr_SetString(PyExc_TypeError, "encode(): a position's variant and turn are a Variant and a Color");
        return -1;
    }
    PyObject *points = field[2];
    if (!PyTuple_Check(points) || PyTuple_GET_SIZE(points) != 24) {
        PyErr_SetString(PyExc_TypeError, "encode(): a position's points are a tuple of 24 stacks");
        return -1;
    }
    for (int p = 1; p <= 24; p++)
        if (stack_code(PyTuple_GET_ITEM(points, OWN_TO_INDEX[variant][me][p]), me ? 'b' : 'w', &state[p]) < 0)
            return -1;
    if (counts(field[3], me, &state[MY_BAR], &state[THEIR_BAR]) < 0 ||
        counts(field[4], me, &state[MY_OFF], &state[THEIR_OFF]) < 0)
        return -1;
    return 0;
}

/* -- a position document (JSON, decoded) as a state ----------------------------------------------
 * The same as game.movegen.state.encode_document: a Backgammon position under the standard rules in
 * its usual form, or 0 ("not here": the caller reads it the long way). -1 only for an error raised. */

static int usual_key(PyObject *key)
{
    static const char *keys[5] = {"variant", "turn", "points", "bar", "off"};
    if (!PyUnicode_CheckExact(key))
        return 0;
    for (int i = 0; i < 5; i++)
        if (PyUnicode_CompareWithASCIIString(key, keys[i]) == 0)
            return 1;
    return 0;
}

/* `bar` or `off`: left out (0, 0), or exactly {"white": n, "black": n} with n 0-15: 1; else 0. */
static int usual_pair(PyObject *doc, const char *key, long pair[2])
{
    PyObject *value = PyDict_GetItemString(doc, key); /* borrowed */
    pair[0] = pair[1] = 0;
    if (value == NULL)
        return 1;
    if (!PyDict_CheckExact(value) || PyDict_GET_SIZE(value) != 2)
        return 0;
    static const char *sides[2] = {"white", "black"};
    for (int i = 0; i < 2; i++) {
        PyObject *count = PyDict_GetItemString(value, sides[i]);
        if (count == NULL || !PyLong_CheckExact(count))
            return 0;
        int overflow;
        pair[i] = PyLong_AsLongAndOverflow(count, &overflow);
        if (overflow || pair[i] < 0 || pair[i] > CHECKERS)
            return 0;
    }
    return 1;
}

/* One stack: a list of "w" or of "b" (1-15 of them) or empty; its colour (0 white, 1 black, -1 none)
 * and size. 1, or 0 for anything else. */
static int usual_stack(PyObject *stack, int *colour, Py_ssize_t *n)
{
    if (!PyList_CheckExact(stack))
        return 0;
    *n = PyList_GET_SIZE(stack);
    *colour = -1;
    if (*n > CHECKERS)
        return 0;
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *checker = PyList_GET_ITEM(stack, i);
        if (!PyUnicode_CheckExact(checker) || PyUnicode_GET_LENGTH(checker) != 1)
            return 0;
        Py_UCS4 c = PyUnicode_READ_CHAR(checker, 0);
        int this = c == 'w' ? 0 : c == 'b' ? 1 : -1;
        if (this < 0 || (*colour >= 0 && this != *colour))
            return 0;
        *colour = this;
    }
    return 1;
}

static int usual_document(PyObject *doc, unsigned char *state)
{
    PyObject *key, *value, *turn, *points, *variant;
    Py_ssize_t at = 0;
    if (!PyDict_CheckExact(doc))
        return 0;
    while (PyDict_Next(doc, &at, &key, &value))
        if (!usual_key(key))
            return 0;
    variant = PyDict_GetItemString(doc, "variant");
    if (variant != NULL && (!PyUnicode_CheckExact(variant) || PyUnicode_CompareWithASCIIString(variant, "backgammon")))
        return 0;
    turn = PyDict_GetItemString(doc, "turn");
    if (turn == NULL || !PyUnicode_CheckExact(turn))
        return 0;
    int me = PyUnicode_CompareWithASCIIString(turn, "white") == 0 ? 0
             : PyUnicode_CompareWithASCIIString(turn, "black") == 0 ? 1 : -1;
    long bar[2], off[2];
    if (me < 0 || !usual_pair(doc, "bar", bar) || !usual_pair(doc, "off", off))
        return 0;
    points = PyDict_GetItemString(doc, "points");
    if (points == NULL || !PyList_CheckExact(points) || PyList_GET_SIZE(points) != 24)
        return 0;
    long held[2] = {bar[0] + off[0], bar[1] + off[1]};
    memset(state, 0, SIZE);
    for (int p = 1; p <= 24; p++) {
        int colour;
        Py_ssize_t n;
        if (!usual_stack(PyList_GET_ITEM(points, OWN_TO_INDEX[BACKGAMMON][me][p]), &colour, &n))
            return 0;
        if (n) {
            held[colour] += n;
            state[p] = (unsigned char)(n + (colour == me ? 0 : THEIRS));
        }
    }
    if (held[0] != CHECKERS || held[1] != CHECKERS)
        return 0;
    state[MY_BAR] = (unsigned char)bar[me];
    state[THEIR_BAR] = (unsigned char)bar[1 - me];
    state[MY_OFF] = (unsigned char)off[me];
    state[THEIR_OFF] = (unsigned char)off[1 - me];
    return 1;
}

/* -- the Python functions -------------------------------------------------------------------- */

static int int_arg(PyObject *arg, const char *what, long low, long high, int *out)
{
    long value = PyLong_AsLong(arg);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s must be from %ld to %ld, got %ld", what, low, high, value);
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* The state, rules (the variant, plus MOTHER_CHECKER) and dice of a call: 0, or -1 with the exception set. */
static int parse(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const char *name,
                 const unsigned char **state, int *rules, int *dice)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "game.movegen._kernel: configure() has not been called");
        return -1;
    }
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, want, nargs);
        return -1;
    }
    if (!PyBytes_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "%s(): a state is bytes, got %.100s", name, Py_TYPE(args[0])->tp_name);
        return -1;
    }
    if (PyBytes_GET_SIZE(args[0]) != SIZE) {
        PyErr_Format(PyExc_ValueError, "%s(): a state is %d bytes, got %zd", name, SIZE, PyBytes_GET_SIZE(args[0]));
        return -1;
    }
    *state = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    for (int p = 1; p <= 24; p++)
        if ((*state)[p] >= CODES) {
            PyErr_Format(PyExc_ValueError, "%s(): point %d has code %d, not a point's code", name, p, (*state)[p]);
            return -1;
        }
    if (int_arg(args[1], "rules", 0, VARIANT_BITS | MOTHER_CHECKER, rules) < 0)
        return -1;
    if ((*rules & VARIANT_BITS) >= VARIANTS) {
        PyErr_Format(PyExc_ValueError, "%s(): rules %d name no variant", name, *rules);
        return -1;
    }
    for (Py_ssize_t i = 2; i < want; i++)
        if (int_arg(args[i], "a die", 1, 6, &dice[i - 2]) < 0)
            return -1;
    return 0;
}

static PyObject *kernel_encode(PyObject *Py_UNUSED(module), PyObject *position)
{
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "game.movegen._kernel: configure() has not been called");
        return NULL;
    }
    PyObject *field[5] = {NULL, NULL, NULL, NULL, NULL}, *result = NULL;
    unsigned char state[SIZE];
    int ok = 1;
    for (int i = 0; ok && i < 5; i++)
        ok = (field[i] = PyObject_GetAttr(position, ATTRIBUTE[i])) != NULL;
    if (ok && encode_into(field, state) == 0)
        result = PyBytes_FromStringAndSize((const char *)state, SIZE);
    for (int i = 0; i < 5; i++)
        Py_XDECREF(field[i]);
    return result;
}

static PyObject *kernel_encode_document(PyObject *Py_UNUSED(module), PyObject *doc)
{
    unsigned char state[SIZE];
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "game.movegen._kernel: configure() has not been called");
        return NULL;
    }
    if (!usual_document(doc, state)) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    return PyBytes_FromStringAndSize((const char *)state, SIZE);
}

/* The node of state `s` in `level`, or NULL. */
static const Node *level_get(const Level *level, const unsigned char *s)
{
    if (level->slots == NULL)
        return NULL;
    Py_ssize_t k = *level_slot(level, s);
    return k ? &level->nodes[k - 1] : NULL;
}

/* Whether state `s` is one of the legal plays that did not end the game. */
static int in_plays(const Search *search, int variant, const unsigned char *s)
{
    return search->plays != NULL && level_get(search->plays, s) != NULL && allowed(variant, s);
}

/* How many legal plays (distinct resulting states): the plays and the endings, each state once. */
static Py_ssize_t search_total(const Search *search, int variant)
{
    const Level *ended = &search->levels[ENDED];
    Py_ssize_t total = search->legal + ended->count;
    for (Py_ssize_t k = 0; k < ended->count; k++)
        total -= in_plays(search, variant, ended->nodes[k].state);
    return total;
}

static PyObject *kernel_plays(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *start;
    int rules, dice[2];
    if (parse(args, nargs, 4, "plays", &start, &rules, dice) < 0)
        return NULL;
    int variant = rules & VARIANT_BITS;
    Search search;
    PyObject *states = NULL, *moves = NULL, *result = NULL;
    if (search_run(&search, start, rules, dice[0], dice[1]) < 0)
        goto done;
    const Level *ended = &search.levels[ENDED];
    Py_ssize_t total = search_total(&search, variant), i = 0;
    states = PyTuple_New(total);
    moves = PyTuple_New(total);
    if (states == NULL || moves == NULL)
        goto done;
    /* As the pure kernel's {**plays, **ended}: the plays in the order found, one that also ended the
     * game with the ending's moves, then the endings the plays do not have. */
    const Py_ssize_t played = search.plays ? search.plays->count : 0;
    for (Py_ssize_t k = 0; k < played + ended->count; k++) {
        const Node *node = k < played ? &search.plays->nodes[k] : &ended->nodes[k - played];
        const Node *same = NULL;
        if (k < played) {
            if (!allowed(variant, node->state))
                continue;
            same = level_get(ended, node->state);
        } else if (in_plays(&search, variant, node->state)) {
            continue;
        }
        if (same != NULL)
            node = same;
        PyObject *state = PyBytes_FromStringAndSize((const char *)node->state, SIZE);
        if (state == NULL)
            goto done;
        PyTuple_SET_ITEM(states, i, state);
        PyObject *made = PyBytes_FromStringAndSize((const char *)node->moves, 3 * (Py_ssize_t)node->made);
        if (made == NULL)
            goto done;
        PyTuple_SET_ITEM(moves, i, made);
        i++;
    }
    result = PyTuple_Pack(2, states, moves);
done:
    Py_XDECREF(states);
    Py_XDECREF(moves);
    search_free(&search);
    return result;
}

static PyObject *kernel_count(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *start;
    int rules, dice[2];
    if (parse(args, nargs, 4, "count", &start, &rules, dice) < 0)
        return NULL;
    Search search;
    PyObject *result = NULL;
    if (search_run(&search, start, rules, dice[0], dice[1]) == 0)
        result = PyLong_FromSsize_t(search_total(&search, rules & VARIANT_BITS));
    search_free(&search);
    return result;
}

static PyObject *kernel_steps(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *start;
    int rules, die;
    if (parse(args, nargs, 3, "steps", &start, &rules, &die) < 0)
        return NULL;
    Step steps[MAX_STEPS];
    int n = single_moves(start, rules & VARIANT_BITS, die, steps);
    PyObject *result = PyTuple_New(n);
    if (result == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(y#y#)", (const char *)steps[i].state, (Py_ssize_t)SIZE,
                                       (const char *)steps[i].move, (Py_ssize_t)3);
        if (pair == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, pair);
    }
    return result;
}

/* walk(): the nodes of one depth, each with its single moves, the next depth found. A node is a
 * state then the dice left (at most 4 bytes). */
static int walk_level(PyObject *from, PyObject *level, PyObject *moves, PyObject *first, int variant)
{
    Py_ssize_t position = 0;
    PyObject *node, *ignored;
    while (PyDict_Next(from, &position, &node, &ignored)) {
        const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(node);
        Py_ssize_t left = PyBytes_GET_SIZE(node) - SIZE;
        PyObject *out = PyList_New(0);
        if (out == NULL || PyDict_SetItem(moves, node, out) < 0) {
            Py_XDECREF(out);
            return -1;
        }
        Py_DECREF(out); /* moves holds it */
        for (int i = 0; i < (int)left; i++) {
            int die = bytes[SIZE + i];
            unsigned char child[SIZE + 4];
            int rest = dice_left_after(bytes, (int)left, i, child);
            if (rest < 0)
                continue;
            Step steps[MAX_STEPS];
            int n = single_moves(bytes, variant, die, steps);
            for (int k = 0; k < n; k++) {
                memcpy(child, steps[k].state, SIZE);
                PyObject *made = PyBytes_FromStringAndSize((const char *)child, SIZE + rest);
                PyObject *raw = PyBytes_FromStringAndSize((const char *)steps[k].move, 3);
                PyObject *edge = made && raw ? Py_BuildValue("(OiO)", raw, die, made) : NULL;
                int failed = edge == NULL || PyList_Append(out, edge) < 0;
                Py_XDECREF(edge);
                if (!failed) {
                    int seen = PyDict_Contains(level, made);
                    failed = seen < 0;
                    if (seen == 0) {
                        PyObject *into = Py_BuildValue("(OOi)", node, raw, die);
                        failed = into == NULL || PyDict_SetItem(level, made, Py_None) < 0 ||
                                 PyDict_SetItem(first, made, into) < 0;
                        Py_XDECREF(into);
                    }
                }
                Py_XDECREF(made);
                Py_XDECREF(raw);
                if (failed)
                    return -1;
            }
        }
    }
    return 0;
}

/* The arguments `root` (a state then the dice left, bytes already checked as such), `rules` and
 * `most` of walk() and index(): the state checked as any state is, each die left 1-6. */
static int parse_root(PyObject *const *args, const char *name, int *rules, int *most)
{
    const unsigned char *state;
    PyObject *just_state = PyBytes_FromStringAndSize(PyBytes_AS_STRING(args[0]), SIZE);
    if (just_state == NULL)
        return -1;
    PyObject *checked[2] = {just_state, args[1]};
    int bad = parse(checked, 2, 2, name, &state, rules, NULL);
    Py_DECREF(just_state);
    if (bad < 0 || int_arg(args[2], "most", 0, 4, most) < 0)
        return -1;
    const unsigned char *root = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    for (Py_ssize_t i = SIZE; i < PyBytes_GET_SIZE(args[0]); i++)
        if (root[i] < 1 || root[i] > 6) {
            PyErr_Format(PyExc_ValueError, "%s(): a die left is 1-6, got %d", name, root[i]);
            return -1;
        }
    return 0;
}

static PyObject *kernel_walk(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyBytes_Check(args[0]) || PyBytes_GET_SIZE(args[0]) < SIZE ||
        PyBytes_GET_SIZE(args[0]) > SIZE + 4) {
        PyErr_SetString(PyExc_TypeError, "walk(root: a state then at most 4 dice, rules, most)");
        return NULL;
    }
    int rules, most;
    if (parse_root(args, "walk", &rules, &most) < 0)
        return NULL;
    PyObject *moves = PyDict_New(), *first = PyDict_New(), *levels = PyList_New(0), *level = PyDict_New();
    if (moves == NULL || first == NULL || levels == NULL || level == NULL ||
        PyDict_SetItem(level, args[0], Py_None) < 0 || PyList_Append(levels, level) < 0)
        goto failed;
    for (int depth = 0; depth < most; depth++) {
        PyObject *from = level;
        level = PyDict_New();
        int done = level == NULL ? -1 : walk_level(from, level, moves, first, rules & VARIANT_BITS);
        Py_DECREF(from);
        if (done < 0 || PyList_Append(levels, level) < 0)
            goto failed;
    }
    Py_DECREF(level);
    return Py_BuildValue("(NNN)", moves, first, levels);
failed:
    Py_XDECREF(moves);
    Py_XDECREF(first);
    Py_XDECREF(levels);
    Py_XDECREF(level);
    return NULL;
}

/* tables[k][state[order[k]]] for each k of a state of `size` bytes: a new tuple, or NULL with the
 * exception set. */
static PyObject *gather_from(const unsigned char *state, Py_ssize_t size, PyObject *tables, const unsigned char *order,
                             Py_ssize_t n)
{
    PyObject *result = PyTuple_New(n);
    if (result == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *table = PyTuple_GET_ITEM(tables, i);
        if (!PyTuple_Check(table) || order[i] >= size || state[order[i]] >= PyTuple_GET_SIZE(table)) {
            PyErr_Format(PyExc_IndexError, "gather(): entry %zd (byte %d of the state) has no table entry", i,
                         (int)order[i]);
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, Py_NewRef(PyTuple_GET_ITEM(table, state[order[i]])));
    }
    return result;
}

static PyObject *kernel_gather(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyBytes_Check(args[0]) || !PyTuple_Check(args[1]) || !PyBytes_Check(args[2]) ||
        PyTuple_GET_SIZE(args[1]) != PyBytes_GET_SIZE(args[2])) {
        PyErr_SetString(PyExc_TypeError, "gather(state: bytes, tables: tuple of tuples, order: bytes as long)");
        return NULL;
    }
    return gather_from((const unsigned char *)PyBytes_AS_STRING(args[0]), PyBytes_GET_SIZE(args[0]), args[1],
                       (const unsigned char *)PyBytes_AS_STRING(args[2]), PyBytes_GET_SIZE(args[2]));
}

/* index(): the walk of walk() kept in C (nodes and edges in arrays, one table of the nodes seen), the
 * nodes leading on to a result marked, then only what the reconciler looks up made as objects: the
 * results' indexes by key, and the boards on the way by key (game/movegen/pure.py `index`). */

typedef struct {
    unsigned char bytes[SIZE + 4]; /* the state, then the dice left */
    unsigned char size;            /* SIZE + how many dice are left */
    unsigned char good;            /* some way leads on from it to a result */
    unsigned char move[3];         /* the move of the first edge into it (none for the root) */
    unsigned char allowed;         /* walk_plays(): 0 not yet asked, 1 its state breaks the prime rules, 2 not */
    Py_ssize_t parent;             /* that edge's node (-1 for the root) */
    Py_ssize_t edges, end;         /* its single moves: edges[edges..end) */
} WalkNode;

typedef struct {
    unsigned char move[3];
    unsigned char die;
    Py_ssize_t child;
} WalkEdge;

typedef struct {
    WalkNode *nodes; /* in the order found, a depth after the other */
    Py_ssize_t count, capacity;
    WalkEdge *edges;
    Py_ssize_t edge_count, edge_capacity;
    Py_ssize_t *slots; /* open addressing: 1 + index into nodes, 0 for an empty slot */
    size_t mask;
} Walk;

static void walk_free(Walk *walk)
{
    PyMem_Free(walk->nodes);
    PyMem_Free(walk->edges);
    PyMem_Free(walk->slots);
}

static uint64_t hash_node(const unsigned char *bytes, int size)
{
    unsigned char padded[SIZE + 4] = {0};
    memcpy(padded, bytes, (size_t)size);
    uint64_t h = hash_state(padded), tail = 0;
    memcpy(&tail, padded + SIZE, 4);
    h ^= tail + (uint64_t)size;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

static Py_ssize_t *walk_slot(const Walk *walk, const unsigned char *bytes, int size)
{
    size_t i = (size_t)hash_node(bytes, size) & walk->mask;
    for (;;) {
        Py_ssize_t k = walk->slots[i];
        if (k == 0 || (walk->nodes[k - 1].size == size && memcmp(walk->nodes[k - 1].bytes, bytes, (size_t)size) == 0))
            return &walk->slots[i];
        i = (i + 1) & walk->mask;
    }
}

/* The index of the node `bytes` (`size` of them), added at the end when new: >= 0, or -1 with the
 * exception set. */
static Py_ssize_t walk_node(Walk *walk, const unsigned char *bytes, int size)
{
    if (walk->count == walk->capacity) {
        WalkNode *nodes = walk->nodes;
        PyMem_Resize(nodes, WalkNode, (size_t)walk->capacity * 2);
        if (nodes == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        walk->nodes = nodes;
        walk->capacity *= 2;
    }
    if ((size_t)(walk->count + 1) * 2 > walk->mask + 1) {
        size_t mask = walk->mask * 2 + 1;
        Py_ssize_t *slots = PyMem_New(Py_ssize_t, mask + 1);
        if (slots == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memset(slots, 0, (mask + 1) * sizeof(Py_ssize_t));
        PyMem_Free(walk->slots);
        walk->slots = slots;
        walk->mask = mask;
        for (Py_ssize_t k = 0; k < walk->count; k++)
            *walk_slot(walk, walk->nodes[k].bytes, walk->nodes[k].size) = k + 1;
    }
    Py_ssize_t *slot = walk_slot(walk, bytes, size);
    if (*slot)
        return *slot - 1;
    WalkNode *node = &walk->nodes[walk->count];
    memset(node, 0, sizeof(*node));
    memcpy(node->bytes, bytes, (size_t)size);
    node->size = (unsigned char)size;
    *slot = ++walk->count;
    return walk->count - 1;
}

static int walk_edge(Walk *walk, const unsigned char *move, int die, Py_ssize_t child)
{
    if (walk->edge_count == walk->edge_capacity) {
        WalkEdge *edges = walk->edges;
        PyMem_Resize(edges, WalkEdge, (size_t)walk->edge_capacity * 2);
        if (edges == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        walk->edges = edges;
        walk->edge_capacity *= 2;
    }
    WalkEdge *edge = &walk->edges[walk->edge_count++];
    memcpy(edge->move, move, 3);
    edge->die = (unsigned char)die;
    edge->child = child;
    return 0;
}

/* As walk(): each node of a depth, in order, expanded by each die left once (in the order left), the
 * children found in order forming the next depth. `depths[d]` is where depth d starts (most + 2 of them). */
static int walk_run(Walk *walk, const unsigned char *root, int size, int variant, int most, Py_ssize_t *depths)
{
    walk->count = walk->edge_count = 0;
    walk->capacity = walk->edge_capacity = 64;
    walk->mask = 127;
    walk->nodes = PyMem_New(WalkNode, (size_t)walk->capacity);
    walk->edges = PyMem_New(WalkEdge, (size_t)walk->edge_capacity);
    walk->slots = PyMem_New(Py_ssize_t, walk->mask + 1);
    if (walk->nodes == NULL || walk->edges == NULL || walk->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(walk->slots, 0, (walk->mask + 1) * sizeof(Py_ssize_t));
    if (walk_node(walk, root, size) < 0)
        return -1;
    walk->nodes[0].parent = -1;
    depths[0] = 0;
    depths[1] = 1;
    for (int depth = 0; depth < most; depth++) {
        for (Py_ssize_t k = depths[depth]; k < depths[depth + 1]; k++) {
            unsigned char bytes[SIZE + 4];
            memcpy(bytes, walk->nodes[k].bytes, SIZE + 4);
            int left = walk->nodes[k].size - SIZE;
            walk->nodes[k].edges = walk->edge_count;
            for (int i = 0; i < left; i++) {
                int die = bytes[SIZE + i];
                unsigned char child[SIZE + 4];
                int rest = dice_left_after(bytes, left, i, child);
                if (rest < 0)
                    continue;
                Step steps[MAX_STEPS];
                int n = single_moves(bytes, variant, die, steps);
                for (int m = 0; m < n; m++) {
                    memcpy(child, steps[m].state, SIZE);
                    Py_ssize_t known = walk->count, c = walk_node(walk, child, SIZE + rest);
                    if (c < 0 || walk_edge(walk, steps[m].move, die, c) < 0)
                        return -1;
                    if (walk->count > known) { /* new: this is the first edge into it */
                        walk->nodes[c].parent = k;
                        memcpy(walk->nodes[c].move, steps[m].move, 3);
                    }
                }
            }
            walk->nodes[k].end = walk->edge_count;
        }
        depths[depth + 2] = walk->count;
    }
    return 0;
}

/* Appends `item` to the list at `key` in `dict` (made when the key is new, holding `item`): 0, or -1
 * with the exception set. Most keys are new: the fresh list is made with its item. */
static int append_at(PyObject *dict, PyObject *key, PyObject *item)
{
    PyObject *fresh = PyList_New(1);
    if (fresh == NULL)
        return -1;
    PyList_SET_ITEM(fresh, 0, Py_NewRef(item));
    PyObject *list = PyDict_SetDefault(dict, key, fresh);
    Py_DECREF(fresh);
    return list == NULL ? -1 : list == fresh ? 0 : PyList_Append(list, item);
}

/* What index() needs of a hit shown half done (pure.py's `Hits`), borrowed from its argument. */
typedef struct {
    const unsigned char *point_zones; /* 25 */
    Py_ssize_t bar;
    PyObject *down, *up;
} Hits;

/* The half done `down` of a hit made from the node `made` (the child's for the hitter down, the
 * parent's for the blot on the bar first) on zone `point`, into `partial` unless `seen` has it. */
static int index_half(PyObject *partial, PyObject *seen, const WalkNode *made, int down, int point,
                      const Hits *hits, PyObject *tables, const unsigned char *order, Py_ssize_t n)
{
    PyObject *state = PyBytes_FromStringAndSize((const char *)made->bytes, SIZE);
    PyObject *left = PyBytes_FromStringAndSize((const char *)made->bytes + SIZE, made->size - SIZE);
    PyObject *half = state && left ? Py_BuildValue("((OOi)O)", down ? Py_True : Py_False, state, point, left) : NULL;
    Py_XDECREF(state);
    Py_XDECREF(left);
    if (half == NULL)
        return -1;
    int known = PySet_Contains(seen, half), failed = known < 0;
    if (known == 0) {
        PyObject *key = gather_from(made->bytes, SIZE, tables, order, n);
        PyObject *bar_table = PyTuple_GET_ITEM(tables, hits->bar);
        int on_bar = made->bytes[THEIR_BAR] + (down ? -1 : 1);
        failed = key == NULL || PySet_Add(seen, half) < 0;
        if (!failed && (point >= n || !PyTuple_Check(bar_table) || on_bar < 0 || on_bar >= PyTuple_GET_SIZE(bar_table))) {
            PyErr_Format(PyExc_IndexError, "index(): a hit on zone %d with %d on the bar has no table entry", point,
                         on_bar);
            failed = 1;
        }
        if (!failed) { /* the key is new, unshared: its two zones are set in place */
            PyObject *old = PyTuple_GET_ITEM(key, point);
            PyTuple_SET_ITEM(key, point, Py_NewRef(down ? hits->down : hits->up));
            Py_DECREF(old);
            old = PyTuple_GET_ITEM(key, hits->bar);
            PyTuple_SET_ITEM(key, hits->bar, Py_NewRef(PyTuple_GET_ITEM(bar_table, on_bar)));
            Py_DECREF(old);
            failed = append_at(partial, key, half) < 0;
        }
        Py_XDECREF(key);
    }
    Py_DECREF(half);
    return failed ? -1 : 0;
}

/* The sensors' tables, their order and the hits of a call (index()'s or turn()'s last three
 * arguments), borrowed: 0, or -1 with the exception set. */
static int parse_seen(PyObject *const *args, const char *name, PyObject **tables, const unsigned char **order,
                      Py_ssize_t *n, Hits *hits)
{
    if (!PyTuple_Check(args[0]) || !PyBytes_Check(args[1]) || PyTuple_GET_SIZE(args[0]) != PyBytes_GET_SIZE(args[1])) {
        PyErr_Format(PyExc_TypeError, "%s(): tables is a tuple of tuples, order bytes as long", name);
        return -1;
    }
    *tables = args[0];
    *order = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    *n = PyBytes_GET_SIZE(args[1]);
    hits->point_zones = NULL;
    if (args[2] == Py_None)
        return 0;
    PyObject *h = args[2];
    if (!PyTuple_Check(h) || PyTuple_GET_SIZE(h) != 4 || !PyBytes_Check(PyTuple_GET_ITEM(h, 0)) ||
        PyBytes_GET_SIZE(PyTuple_GET_ITEM(h, 0)) != 25) {
        PyErr_Format(PyExc_TypeError, "%s(): hits is None or (25 zone indexes: bytes, bar, down, up)", name);
        return -1;
    }
    hits->point_zones = (const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(h, 0));
    hits->bar = PyLong_AsSsize_t(PyTuple_GET_ITEM(h, 1));
    if (hits->bar == -1 && PyErr_Occurred())
        return -1;
    if (hits->bar < 0 || hits->bar >= *n) {
        PyErr_Format(PyExc_IndexError, "%s(): the bar's zone index %zd is not one of %zd", name, hits->bar, *n);
        return -1;
    }
    hits->down = PyTuple_GET_ITEM(h, 2);
    hits->up = PyTuple_GET_ITEM(h, 3);
    return 0;
}

/* The results' states (a tuple of 28-byte bytes) as a level, for looking them up: 0, or -1 with the
 * exception set (free the level whatever happens). */
static int results_level(Level *wanted, PyObject *results)
{
    wanted->nodes = NULL;
    wanted->slots = NULL;
    if (level_init(wanted, 0) < 0)
        return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(results); i++) {
        PyObject *item = PyTuple_GET_ITEM(results, i);
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) != SIZE) {
            PyErr_SetString(PyExc_TypeError, "index(): a result is a state, 28 bytes");
            return -1;
        }
        if (level_add(wanted, (const unsigned char *)PyBytes_AS_STRING(item), NO_MOVES, NO_MOVES) < 0)
            return -1;
    }
    return 0;
}

/* (legal, partial) of a walk `most` deep (index()): the nodes leading on to one of the results
 * marked, the results' indexes by key, the boards on the way by key. NULL with the exception set. */
static PyObject *index_walked(Walk *walk, const Py_ssize_t *depths, int most, PyObject *results, const Level *wanted,
                              PyObject *tables, const unsigned char *order, Py_ssize_t n, const Hits *hits)
{
    if (most > 0) /* which nodes lead on to a result: the last depth's by their state (no `wanted`: the
                   * results are that depth's allowed nodes, walk_plays() says which), then upward */
        for (Py_ssize_t k = depths[most]; k < depths[most + 1]; k++)
            walk->nodes[k].good = wanted ? level_get(wanted, walk->nodes[k].bytes) != NULL
                                         : walk->nodes[k].allowed == 2;
    for (int depth = most - 1; depth >= 0; depth--)
        for (Py_ssize_t k = depths[depth]; k < depths[depth + 1]; k++)
            for (Py_ssize_t e = walk->nodes[k].edges; e < walk->nodes[k].end && !walk->nodes[k].good; e++)
                walk->nodes[k].good = walk->nodes[walk->edges[e].child].good;
    PyObject *legal = PyDict_New(), *partial = PyDict_New(), *seen = PySet_New(NULL), *result = NULL;
    if (legal == NULL || partial == NULL || seen == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(results); i++) {
        PyObject *key = gather_from((const unsigned char *)PyBytes_AS_STRING(PyTuple_GET_ITEM(results, i)), SIZE,
                                    tables, order, n);
        PyObject *number = key ? PyLong_FromSsize_t(i) : NULL;
        int failed = number == NULL || append_at(legal, key, number) < 0;
        Py_XDECREF(key);
        Py_XDECREF(number);
        if (failed)
            goto done;
    }
    for (Py_ssize_t k = 0; most > 0 && k < depths[most]; k++) { /* the nodes with single moves, in order */
        const WalkNode *node = &walk->nodes[k];
        if (!node->good)
            continue;
        if (k > 0) {
            PyObject *key = gather_from(node->bytes, SIZE, tables, order, n);
            PyObject *bytes = key ? PyBytes_FromStringAndSize((const char *)node->bytes, node->size) : NULL;
            int failed = bytes == NULL || append_at(partial, key, bytes) < 0;
            Py_XDECREF(key);
            Py_XDECREF(bytes);
            if (failed)
                goto done;
        }
        if (hits->point_zones == NULL)
            continue;
        for (Py_ssize_t e = node->edges; e < node->end; e++) {
            const WalkEdge *edge = &walk->edges[e];
            if (!edge->move[2] || !walk->nodes[edge->child].good)
                continue;
            int point = hits->point_zones[edge->move[1] < 25 ? edge->move[1] : 0];
            if (index_half(partial, seen, &walk->nodes[edge->child], 1, point, hits, tables, order, n) < 0 ||
                index_half(partial, seen, node, 0, point, hits, tables, order, n) < 0)
                goto done;
        }
    }
    result = PyTuple_Pack(2, legal, partial);
done:
    Py_XDECREF(legal);
    Py_XDECREF(partial);
    Py_XDECREF(seen);
    return result;
}

static PyObject *kernel_index(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7 || !PyBytes_Check(args[0]) || PyBytes_GET_SIZE(args[0]) < SIZE ||
        PyBytes_GET_SIZE(args[0]) > SIZE + 4 || !PyTuple_Check(args[3]) || !PyTuple_Check(args[4]) ||
        !PyBytes_Check(args[5]) || PyTuple_GET_SIZE(args[4]) != PyBytes_GET_SIZE(args[5])) {
        PyErr_SetString(PyExc_TypeError, "index(root: a state then at most 4 dice, rules, most, results: tuple, "
                                         "tables: tuple of tuples, order: bytes as long, hits)");
        return NULL;
    }
    int rules, most;
    if (parse_root(args, "index", &rules, &most) < 0)
        return NULL;
    const unsigned char *root = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    int size = (int)PyBytes_GET_SIZE(args[0]);
    PyObject *tables;
    const unsigned char *order;
    Py_ssize_t n;
    Hits hits;
    if (parse_seen(args + 4, "index", &tables, &order, &n, &hits) < 0)
        return NULL;
    Level wanted; /* the results' states */
    Walk walk = {NULL, 0, 0, NULL, 0, 0, NULL, 0};
    Py_ssize_t depths[4 + 2];
    PyObject *result = NULL;
    if (results_level(&wanted, args[3]) == 0 && walk_run(&walk, root, size, rules & VARIANT_BITS, most, depths) == 0)
        result = index_walked(&walk, depths, most, args[3], &wanted, tables, order, n, &hits);
    level_free(&wanted);
    walk_free(&walk);
    return result;
}

/* The legal plays of a walk from a state with every die of the roll (turn() without the
 * mother-checker rule), as search_run() finds them: the nodes of the walk are the search's
 * states in the same order, a depth for each die played (for two dice, the first depth the larger
 * die's moves then the smaller's), and each node's first edge the moves the search keeps. Fills
 * `states` and `moves` (new tuples) and `most`: 0, or -1 with the exception set. */
/* Whether node k's state keeps the prime rules (`allowed`), judged once. */
static int node_allowed(Walk *walk, Py_ssize_t k, int variant)
{
    WalkNode *node = &walk->nodes[k];
    if (!node->allowed)
        node->allowed = (unsigned char)(1 + allowed(variant, node->bytes));
    return node->allowed == 2;
}

static int walk_plays(Walk *walk, const Py_ssize_t *depths, int variant, int doubles, PyObject **states,
                      PyObject **moves, int *most)
{
    Py_ssize_t from = 0, to = 0; /* the plays: the allowed nodes of nodes[from..to) */
    *most = 0;
    if (doubles) { /* the deepest depth with an allowed state, before the first empty one */
        for (int depth = 1; depth <= 4 && depths[depth + 1] > depths[depth]; depth++)
            for (Py_ssize_t k = depths[depth]; k < depths[depth + 1]; k++)
                if (node_allowed(walk, k, variant)) {
                    from = depths[depth], to = depths[depth + 1], *most = depth;
                    break;
                }
    } else { /* both dice, else the larger alone, else the smaller alone */
        Py_ssize_t larger_end = depths[1];
        while (larger_end < depths[2] && walk->nodes[larger_end].bytes[SIZE] == walk->nodes[0].bytes[SIZE + 1])
            larger_end++; /* the larger die played first: the smaller one left */
        const Py_ssize_t choice[3][3] = {{depths[2], depths[3], 2}, {depths[1], larger_end, 1},
                                         {larger_end, depths[2], 1}};
        for (int c = 0; c < 3 && *most == 0; c++)
            for (Py_ssize_t k = choice[c][0]; k < choice[c][1]; k++)
                if (node_allowed(walk, k, variant)) {
                    from = choice[c][0], to = choice[c][1], *most = (int)choice[c][2];
                    break;
                }
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t k = from; k < to; k++)
        total += node_allowed(walk, k, variant);
    *states = PyTuple_New(total);
    *moves = PyTuple_New(total);
    if (*states == NULL || *moves == NULL)
        return -1;
    for (Py_ssize_t k = from, i = 0; k < to; k++) {
        if (!node_allowed(walk, k, variant))
            continue;
        unsigned char made[4 * 3];
        Py_ssize_t node = k;
        for (int m = *most - 1; m >= 0; m--, node = walk->nodes[node].parent)
            memcpy(made + 3 * m, walk->nodes[node].move, 3);
        PyObject *state = PyBytes_FromStringAndSize((const char *)walk->nodes[k].bytes, SIZE);
        if (state == NULL)
            return -1;
        PyTuple_SET_ITEM(*states, i, state);
        PyObject *raw = PyBytes_FromStringAndSize((const char *)made, 3 * (Py_ssize_t)*most);
        if (raw == NULL)
            return -1;
        PyTuple_SET_ITEM(*moves, i, raw);
        i++;
    }
    return 0;
}

static PyObject *kernel_plays(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs);

static PyObject *kernel_turn(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *start;
    int rules, dice[2];
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError, "turn() takes 7 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *tables;
    const unsigned char *order;
    Py_ssize_t n;
    Hits hits;
    if (parse(args, 4, 4, "turn", &start, &rules, dice) < 0 || parse_seen(args + 4, "turn", &tables, &order, &n,
                                                                          &hits) < 0)
        return NULL;
    int variant = rules & VARIANT_BITS, doubles = dice[0] == dice[1];
    int high = dice[0] > dice[1] ? dice[0] : dice[1], low = dice[0] > dice[1] ? dice[1] : dice[0];
    unsigned char root[SIZE + 4];
    memcpy(root, start, SIZE);
    int size = SIZE + (doubles ? 4 : 2);
    for (int i = SIZE; i < size; i++)
        root[i] = (unsigned char)(doubles || i == SIZE ? high : low);
    PyObject *states = NULL, *moves = NULL, *index = NULL, *result = NULL;
    Level wanted = {NULL, 0, 0, NULL, 0, 0};
    Walk walk = {NULL, 0, 0, NULL, 0, 0, NULL, 0};
    Py_ssize_t depths[4 + 2];
    int most;
    if (rules & MOTHER_CHECKER) { /* a move that ends the game ends the play: the search, then the walk */
        PyObject *found = kernel_plays(module, args, 4);
        if (found == NULL)
            goto done;
        states = Py_NewRef(PyTuple_GET_ITEM(found, 0));
        moves = Py_NewRef(PyTuple_GET_ITEM(found, 1));
        Py_DECREF(found);
        most = PyTuple_GET_SIZE(moves) ? (int)(PyBytes_GET_SIZE(PyTuple_GET_ITEM(moves, 0)) / 3) : 0;
        if (walk_run(&walk, root, size, variant, most, depths) < 0)
            goto done;
    } else if (walk_run(&walk, root, size, variant, size - SIZE, depths) < 0 ||
               walk_plays(&walk, depths, variant, doubles, &states, &moves, &most) < 0) {
        goto done;
    }
    /* The results are a whole depth's allowed nodes (each state once there) but where the larger or
     * the smaller die alone is played, or the search found them: looked up by state. */
    int whole_depth = !(rules & MOTHER_CHECKER) && (doubles || most == 2);
    if (!whole_depth && results_level(&wanted, states) < 0)
        goto done;
    index = index_walked(&walk, depths, most, states, whole_depth ? NULL : &wanted, tables, order, n, &hits);
    if (index != NULL)
        result = PyTuple_Pack(4, states, moves, PyTuple_GET_ITEM(index, 0), PyTuple_GET_ITEM(index, 1));
done:
    Py_XDECREF(states);
    Py_XDECREF(moves);
    Py_XDECREF(index);
    level_free(&wanted);
    walk_free(&walk);
    return result;
}

/* -- the Explainer's relaxed search (game.explain.Explainer._explore and _lifts) ------------------
 *
 * Boards here are layouts: 28 str stacks of 'w' and 'b', bottom to top, as game.zones has them. The
 * search is the Explainer's, step for step, on the same Python objects (so the same dict in the same
 * order): the single moves a hand can make by each die, the rules of single moves each breaks counted
 * (game.explain words them), the cheapest path to each (board, dice left) kept, the first on a tie. */

#define MAX_STACK 64

typedef struct {
    int variant;
    char me, them;
    int at[26];   /* own location (0 off, 1-24, 25 bar) -> layout index */
    int their_bar;
    PyObject *admit; /* a callable, or NULL */
} Relaxed;

/* Puts `value` (a new reference) in place of a new tuple's item. */
static void replace_item(PyObject *tuple, int index, PyObject *value)
{
    PyObject *old = PyTuple_GET_ITEM(tuple, index);
    PyTuple_SET_ITEM(tuple, index, value);
    Py_DECREF(old);
}

/* The stack's bytes (ASCII), or NULL with TypeError set. */
static const char *stack_chars(PyObject *stack, Py_ssize_t *length)
{
    if (!PyUnicode_Check(stack) || !PyUnicode_IS_ASCII(stack)) {
        PyErr_SetString(PyExc_TypeError, "relaxed(): a board's stacks are str of 'w' and 'b'");
        return NULL;
    }
    *length = PyUnicode_GET_LENGTH(stack);
    return (const char *)PyUnicode_1BYTE_DATA(stack);
}

static int has_char(const char *s, Py_ssize_t n, char c)
{
    return n > 0 && memchr(s, c, (size_t)n) != NULL;
}

static Py_ssize_t count_char(const char *s, Py_ssize_t n, char c)
{
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        k += s[i] == c;
    return k;
}

/* A new str of `a` then `b`. */
static PyObject *joined(const char *a, Py_ssize_t na, const char *b, Py_ssize_t nb)
{
    char buffer[2 * MAX_STACK];
    if (na + nb > (Py_ssize_t)sizeof buffer) {
        PyErr_SetString(PyExc_ValueError, "relaxed(): a stack of more than 64 checkers");
        return NULL;
    }
    memcpy(buffer, a, (size_t)na);
    memcpy(buffer + na, b, (size_t)nb);
    return PyUnicode_FromStringAndSize(buffer, na + nb);
}

/* The single moves of `die` on `board` (a tuple of 28 str), each made a child of `node` in `deeper`
 * as _explore does; 0, or -1 with an exception set. */
static int relaxed_lifts(const Relaxed *r, PyObject *board, int die, PyObject *dice_left, long cost, PyObject *steps,
                         PyObject *deeper)
{
    const char *own[26];
    Py_ssize_t length[26];
    for (int loc = 0; loc < 26; loc++)
        if ((own[loc] = stack_chars(PyTuple_GET_ITEM(board, r->at[loc]), &length[loc])) == NULL)
            return -1;
    const char me = r->me, them = r->them;
    const int on_bar = length[BAR] > 0;
    const int hitting = r->variant != RUNGAMMON, catching = r->variant == CATCHGAMMON;
    const int blocking = r->variant == RUNGAMMON ? 1 : 2;
    int bear_off_known = 0, block = 0, highest = 0;
    /* the sources, in _sources' order: the bar, then 24 down to 1 (a trapped checker after the top one) */
    int sources[2 * 24 + 1], pulled[2 * 24 + 1], n = 0;
    if (on_bar) {
        sources[n] = BAR;
        pulled[n++] = 0;
    }
    for (int p = 24; p > 0; p--) {
        Py_ssize_t k = length[p];
        if (k == 0)
            continue;
        if (own[p][k - 1] == me) {
            sources[n] = p;
            pulled[n++] = 0;
        }
        if (catching && own[p][0] == me && has_char(own[p], k, them)) {
            sources[n] = p;
            pulled[n++] = 1;
        }
    }
    PyObject *moves_left = PyLong_FromSsize_t(PyTuple_GET_SIZE(dice_left)), *die_object = PyLong_FromLong(die);
    if (moves_left == NULL || die_object == NULL)
        goto failed;
    for (int i = 0; i < n; i++) {
        int p = sources[i], trapped = pulled[i], q = p - die;
        const char *landing = q > 0 ? own[q] : "";
        Py_ssize_t landed = q > 0 ? length[q] : 0;
        int hit = hitting && landed == 1 && landing[0] == them;
        PyObject *made = PyTuple_New(SIZE);
        if (made == NULL)
            goto failed;
        for (int z = 0; z < SIZE; z++)
            PyTuple_SET_ITEM(made, z, Py_NewRef(PyTuple_GET_ITEM(board, z)));
        /* the checker lifted: the top one, or the trapped one at the bottom */
        PyObject *left_behind = trapped ? PyUnicode_FromStringAndSize(own[p] + 1, length[p] - 1)
                                        : PyUnicode_FromStringAndSize(own[p], length[p] - 1);
        if (left_behind == NULL) {
            Py_DECREF(made);
            goto failed;
        }
        replace_item(made, r->at[p], left_behind);
        PyObject *placed = NULL;
        int placed_at;
        if (q <= 0) {
            Py_ssize_t k;
            const char *tray = stack_chars(PyTuple_GET_ITEM(made, r->at[0]), &k);
            placed = tray == NULL ? NULL : joined(tray, k, &me, 1);
            placed_at = r->at[0];
        } else if (hit && r->variant == BACKGAMMON) {
            placed = PyUnicode_FromStringAndSize(&me, 1);
            placed_at = r->at[q];
            if (placed != NULL) {
                Py_ssize_t k;
                const char *bar = stack_chars(PyTuple_GET_ITEM(made, r->their_bar), &k);
                PyObject *sent = bar == NULL ? NULL : joined(bar, k, &them, 1);
                if (sent == NULL)
                    Py_CLEAR(placed);
                else
                    replace_item(made, r->their_bar, sent);
            }
        } else {
            placed = joined(landing, landed, &me, 1);
            placed_at = r->at[q];
        }
        if (placed == NULL) {
            Py_DECREF(made);
            goto failed;
        }
        replace_item(made, placed_at, placed);
        if (r->admit != NULL) {
            PyObject *said = PyObject_CallFunctionObjArgs(r->admit, made, moves_left, NULL);
            int admitted = said == NULL ? -1 : PyObject_IsTrue(said);
            Py_XDECREF(said);
            if (admitted <= 0) {
                Py_DECREF(made);
                if (admitted < 0)
                    goto failed;
                continue;
            }
        }
        long broken = trapped + (on_bar && p != BAR);
        if (p == 24 && r->variant == RUNGAMMON && count_char(own[24], length[24], me) < CHECKERS &&
            length[0] == 0) { /* a second checker leaving 24 before one has passed the opponent's start */
            int passed = 0;
            for (int point = 1; point < 12 && !passed; point++)
                passed = has_char(own[point], length[point], me);
            broken += !passed;
        }
        if (q > 0) {
            if (landed > 0) {
                if (catching) { /* blocked unless what is below the mover's own top checkers is nothing or one of theirs */
                    Py_ssize_t below = landed;
                    while (below > 0 && landing[below - 1] == me)
                        below--;
                    broken += !(below == 0 || (below == 1 && landing[0] == them));
                } else {
                    broken += count_char(landing, landed, them) >= blocking;
                }
            }
        } else {
            if (!bear_off_known) { /* _bear_off_block and the highest home point holding one of the mover's */
                block = on_bar;
                for (int point = 24; point > 6 && !block; point--)
                    block = has_char(own[point], length[point], me);
                for (int point = 6; point > 0 && !block; point--)
                    block = length[point] > 0 && own[point][0] == me && has_char(own[point], length[point], them);
                for (int point = 6; point > 0 && !highest; point--)
                    if (has_char(own[point], length[point], me))
                        highest = point;
                bear_off_known = 1;
            }
            broken += block || (die > p && highest > p);
        }
        /* the child: kept when new, or reached breaking fewer rules */
        PyObject *node = PyTuple_Pack(2, made, dice_left);
        Py_DECREF(made);
        if (node == NULL)
            goto failed;
        long total = cost + broken;
        PyObject *kept = PyDict_GetItemWithError(deeper, node);
        if (kept == NULL && PyErr_Occurred()) {
            Py_DECREF(node);
            goto failed;
        }
        if (kept == NULL || total < PyLong_AsLong(PyTuple_GET_ITEM(kept, 0))) {
            Py_ssize_t m = PyTuple_GET_SIZE(steps);
            PyObject *longer = PyTuple_New(m + 1), *step = NULL, *path = NULL;
            if (longer != NULL) {
                for (Py_ssize_t j = 0; j < m; j++)
                    PyTuple_SET_ITEM(longer, j, Py_NewRef(PyTuple_GET_ITEM(steps, j)));
                step = Py_BuildValue("(OiOO)", board, p, die_object, trapped ? Py_True : Py_False);
            }
            if (step != NULL) {
                PyTuple_SET_ITEM(longer, m, step);
                path = Py_BuildValue("(lO)", total, longer);
            }
            Py_XDECREF(longer);
            int stored = path == NULL ? -1 : PyDict_SetItem(deeper, node, path);
            Py_XDECREF(path);
            if (stored < 0) {
                Py_DECREF(node);
                goto failed;
            }
        }
        Py_DECREF(node);
    }
    Py_DECREF(moves_left);
    Py_DECREF(die_object);
    return 0;
failed:
    Py_XDECREF(moves_left);
    Py_XDECREF(die_object);
    return -1;
}

/* relaxed(start, dice, variant, me, them, at, their_bar, admit) -> {(board, dice left): (cost, steps)}:
 * game.explain.Explainer._explore's search, the same dict in the same order. */
static PyObject *kernel_relaxed(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Relaxed r;
    if (nargs != 8 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != SIZE || !PyTuple_Check(args[1]) ||
        PyTuple_GET_SIZE(args[1]) > 4 || !PyUnicode_Check(args[3]) || !PyUnicode_Check(args[4]) ||
        !PyTuple_Check(args[5]) || PyTuple_GET_SIZE(args[5]) != 26) {
        PyErr_SetString(PyExc_TypeError, "relaxed(start: 28 stacks, dice: up to 4, variant, me, them, at: 26 indexes, "
                                         "their_bar, admit)");
        return NULL;
    }
    r.variant = (int)PyLong_AsLong(args[2]);
    r.their_bar = (int)PyLong_AsLong(args[6]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t k1, k2;
    const char *me = stack_chars(args[3], &k1), *them = stack_chars(args[4], &k2);
    if (me == NULL || them == NULL)
        return NULL;
    if (k1 != 1 || k2 != 1 || r.variant < 0 || r.variant >= VARIANTS || r.their_bar < 0 || r.their_bar >= SIZE) {
        PyErr_SetString(PyExc_ValueError, "relaxed(): one letter each side, a variant 0-2, a zone index 0-27");
        return NULL;
    }
    r.me = me[0];
    r.them = them[0];
    for (int loc = 0; loc < 26; loc++) {
        long index = PyLong_AsLong(PyTuple_GET_ITEM(args[5], loc));
        if (index < 0 || index >= SIZE) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "relaxed(): a zone index 0-27");
            return NULL;
        }
        r.at[loc] = (int)index;
    }
    for (Py_ssize_t i = 0; i < SIZE; i++) {
        Py_ssize_t k;
        if (stack_chars(PyTuple_GET_ITEM(args[0], i), &k) == NULL)
            return NULL;
        if (k > MAX_STACK) {
            PyErr_SetString(PyExc_ValueError, "relaxed(): a stack of more than 64 checkers");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[1]); i++) {
        long die = PyLong_AsLong(PyTuple_GET_ITEM(args[1], i));
        if (die < 1 || die > 6) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "relaxed(): a die is 1-6");
            return NULL;
        }
    }
    r.admit = args[7] == Py_None ? NULL : args[7];
    PyObject *found = PyDict_New(), *level = NULL, *start = PyTuple_Pack(2, args[0], args[1]);
    PyObject *path = Py_BuildValue("(i())", 0);
    if (found == NULL || start == NULL || path == NULL || PyDict_SetItem(found, start, path) < 0)
        goto failed;
    level = PyDict_Copy(found);
    while (level != NULL && PyDict_GET_SIZE(level) > 0) {
        PyObject *deeper = PyDict_New();
        if (deeper == NULL)
            goto failed;
        Py_ssize_t position = 0;
        PyObject *node, *reached;
        while (PyDict_Next(level, &position, &node, &reached)) {
            PyObject *board = PyTuple_GET_ITEM(node, 0), *left = PyTuple_GET_ITEM(node, 1);
            long cost = PyLong_AsLong(PyTuple_GET_ITEM(reached, 0));
            PyObject *steps = PyTuple_GET_ITEM(reached, 1);
            Py_ssize_t n = PyTuple_GET_SIZE(left);
            long dice[4];
            for (Py_ssize_t i = 0; i < n; i++)
                dice[i] = PyLong_AsLong(PyTuple_GET_ITEM(left, i));
            for (Py_ssize_t i = 0; i < n; i++) { /* each die once, in the order of the dice left */
                int seen = 0;
                for (Py_ssize_t j = 0; j < i; j++)
                    seen |= dice[j] == dice[i];
                if (seen)
                    continue;
                PyObject *rest = PyTuple_New(n - 1);
                if (rest == NULL) {
                    Py_DECREF(deeper);
                    goto failed;
                }
                for (Py_ssize_t j = 0, k = 0; j < n; j++)
                    if (j != i)
                        PyTuple_SET_ITEM(rest, k++, Py_NewRef(PyTuple_GET_ITEM(left, j)));
                int done = relaxed_lifts(&r, board, (int)dice[i], rest, cost, steps, deeper);
                Py_DECREF(rest);
                if (done < 0) {
                    Py_DECREF(deeper);
                    goto failed;
                }
            }
        }
        if (PyDict_Update(found, deeper) < 0) {
            Py_DECREF(deeper);
            goto failed;
        }
        Py_SETREF(level, deeper);
    }
    Py_XDECREF(level);
    Py_DECREF(start);
    Py_DECREF(path);
    return found;
failed:
    Py_XDECREF(found);
    Py_XDECREF(level);
    Py_XDECREF(start);
    Py_XDECREF(path);
    return NULL;
}

static PyObject *kernel_configure(PyObject *Py_UNUSED(module), PyObject *args)
{
    Py_buffer tables[8], own_to_index;
    PyObject *variants, *colours;
    unsigned char *targets[8] = {FREE, LEAVE, ARRIVE[BACKGAMMON], ARRIVE[CATCHGAMMON], ARRIVE[RUNGAMMON],
                                 HAS_MINE, MINE_TRAPPED, HAS_THEIRS};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*O!O!y*:configure", &tables[0], &tables[1], &tables[2],
                          &tables[3], &tables[4], &tables[5], &tables[6], &tables[7], &PyTuple_Type, &variants,
                          &PyTuple_Type, &colours, &own_to_index))
        return NULL;
    int ok = PyTuple_GET_SIZE(variants) == VARIANTS && PyTuple_GET_SIZE(colours) == 2 &&
             own_to_index.len == (Py_ssize_t)sizeof(OWN_TO_INDEX);
    for (int i = 0; i < 8; i++)
        ok = ok && tables[i].len >= CODES;
    for (Py_ssize_t i = 0; ok && i < own_to_index.len; i++)
        ok = ((const unsigned char *)own_to_index.buf)[i] < 24;
    if (ok) {
        for (int i = 0; i < 8; i++)
            memcpy(targets[i], tables[i].buf, CODES);
        memcpy(OWN_TO_INDEX, own_to_index.buf, sizeof(OWN_TO_INDEX));
        for (int v = 0; v < VARIANTS; v++)
            Py_XSETREF(VARIANT_MEMBERS[v], Py_NewRef(PyTuple_GET_ITEM(variants, v)));
        for (int c = 0; c < 2; c++)
            Py_XSETREF(COLOUR_MEMBERS[c], Py_NewRef(PyTuple_GET_ITEM(colours, c)));
    }
    for (int i = 0; i < 8; i++)
        PyBuffer_Release(&tables[i]);
    PyBuffer_Release(&own_to_index);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "configure(): 8 tables of 64 entries, 3 variants, 2 colours and "
                                          "3 x 2 x 25 point indexes below 24");
        return NULL;
    }
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)kernel_configure, METH_VARARGS,
     "configure(free, leave, arrive_bg, arrive_cg, arrive_rg, has_mine, mine_trapped, has_theirs, variants, "
     "colours, own_to_index): the pure kernel's per-code tables, 64 bytes each (255 for none), and what "
     "encode() needs to read a Position."},
    {"encode", (PyCFunction)kernel_encode, METH_O, "encode(position) -> state: the position from the mover's side."},
    {"encode_document", (PyCFunction)kernel_encode_document, METH_O,
     "encode_document(doc) -> state or None: a position document in its usual form (a Backgammon position, "
     "standard rules) as a state; None for any other."},
    {"plays", (PyCFunction)(void (*)(void))kernel_plays, METH_FASTCALL,
     "plays(state, variant, d1, d2) -> (states, moves): each legal play's resulting state and its moves."},
    {"count", (PyCFunction)(void (*)(void))kernel_count, METH_FASTCALL,
     "count(state, variant, d1, d2) -> int: how many legal plays."},
    {"steps", (PyCFunction)(void (*)(void))kernel_steps, METH_FASTCALL,
     "steps(state, variant, die) -> ((state, move), ...): each legal single move of one die."},
    {"walk", (PyCFunction)(void (*)(void))kernel_walk, METH_FASTCALL,
     "walk(root, rules, most) -> (moves, first, levels): every single move of the dice left, most deep."},
    {"index", (PyCFunction)(void (*)(void))kernel_index, METH_FASTCALL,
     "index(root, rules, most, results, tables, order, hits) -> (legal, partial): the results' indexes and the "
     "boards on the way to them, by what the sensors tell of them (game/movegen/pure.py index)."},
    {"turn", (PyCFunction)(void (*)(void))kernel_turn, METH_FASTCALL,
     "turn(state, rules, d1, d2, tables, order, hits) -> (states, moves, legal, partial): plays() and index() of "
     "one roll, from one walk of its single moves (game/movegen/pure.py turn)."},
    {"gather", (PyCFunction)(void (*)(void))kernel_gather, METH_FASTCALL,
     "gather(state, tables, order) -> tuple: tables[k][state[order[k]]] for each k."},
    {"relaxed", (PyCFunction)(void (*)(void))kernel_relaxed, METH_FASTCALL,
     "relaxed(start, dice, variant, me, them, at, their_bar, admit) -> {(board, dice left): (cost, steps)}: "
     "game.explain's relaxed search of a hand's single moves (Explainer._explore), the same dict in the same order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "game.movegen._kernel",
    "The compiled kernel of game.movegen (see game/movegen/pure.py for the same in Python).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
    static const char *names[5] = {"variant", "turn", "points", "bar", "off"};
    for (int i = 0; i < 5; i++)
        if (ATTRIBUTE[i] == NULL && (ATTRIBUTE[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return NULL;
    return PyModule_Create(&module);
}
