/* The disassembly search compiled ahead of time (issue #24, item 5): built by `pip install`
 * with the C compiler, so that taking an assembly apart imports no numba and compiles
 * nothing, and the breadth-first loop over positions runs here instead of in Python.
 *
 * The functions:
 *   expand(voxels, starts, dims, fixed, pos) -> (splits, steps)
 *       one position's step, the same answer as search.py's ``_Part.expand`` (and the numba
 *       kernel in _kernel.py): the separations [(mask, direction)], or, when there are none,
 *       the moves [(position, (mask, direction, distance))];
 *   bfs(voxels, starts, dims, fixed, start, visited, max_states, seconds)
 *       -> (status, visited, position, splits, path)
 *       the whole breadth-first search of ``_Part.search`` as BurrTools judges (the first
 *       separation met): status 1 with the first position that holds a separation, its
 *       separations and the moves [(mask, direction, distance)] that lead there from
 *       ``start``; 0 when no position reached holds one; 2 past ``max_states`` positions
 *       (counted on from ``visited``, a front at a time, as search.py's budget counts);
 *       3 past ``seconds`` (negative: no limit);
 *   walk(voxels, starts, dims, fixed, start), walk_next(walk, visited, max_states, seconds),
 *   walk_positions(walk)
 *       the same search for a thorough search, which goes on past separations whose parts
 *       do not come apart: walk_next answers as bfs and goes on from there each time;
 *       walk_positions gives every position met (they all fail when the walk ends);
 *   book(dims), book_add(book, voxels) -> (shape, low corner), book_info(book)
 *       a book of shapes (a piece in one orientation, cells from its low corner) and of the
 *       free distances between them, kept for every search of a puzzle (#35 item 1);
 *   bfs_in(book, shapes, origins, fixed, start, ...), walk_in(book, shapes, origins, ...)
 *       bfs and walk over shapes of a book at their low corners (3 ints a piece); bfs and
 *       walk build a book of their part's own pieces, so both ways run the same code.
 *
 * Each step does what _kernel.py does (blocking, separations, moves, shifted), in the same
 * order, so the positions are met in the same order and the same separation is found;
 * tests/test_disassembly.py compares both with the Python reference position by position
 * and level by level, tests/test_disassembly_shared.py the shared book. The blocking
 * closure is not _kernel.py's Floyd-Warshall over a matrix but bit masks closed a distance
 * at a time, kept as each piece's history (what it drags from each distance on), which is
 * all that moves and separations read of the matrix.
 *
 * Pieces: piece k's cells are rows starts[k] .. starts[k + 1] - 1 of ``voxels`` (int64,
 * x y z), each shifted by pos[3k .. 3k + 2]; positions are relative to piece 0 (its offset
 * stays 0). Masks are 64-bit: at most 62 pieces. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(_WIN32)
#include <windows.h>
#endif

#define FREE_DIST ((int64_t)1 << 30) /* as blocking.FREE: "never blocked" */
#define MAX_PIECES 62

enum { ST_NONE = 0, ST_FOUND = 1, ST_STATES = 2, ST_TIME = 3, ST_MEMORY = 4, ST_SIGNAL = -2 };

/* A Ctrl-C (or another signal's handler raising) while the search runs without the GIL:
 * 1 with the exception set. Only the main thread runs handlers; elsewhere this is 0. */
static int signalled(void) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int raised = PyErr_CheckSignals() < 0;
    PyGILState_Release(gil);
    return raised;
}

static double now_seconds(void) {
#if defined(_WIN32)
    return (double)GetTickCount64() / 1000.0;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

static int popcount64(uint64_t x) {
#if defined(__POPCNT__)
    return __builtin_popcountll(x);
#else /* no instruction for it in this build: a few word operations, not a library call */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static int ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int k = 0;
    while (!(x & 1)) {
        x >>= 1;
        k++;
    }
    return k;
#endif
}

/* -- shapes and the book that shares them ------------------------------------------------ */

/* A piece in one orientation, cells counted from its own low corner: where its cells are
 * (a grid over its box) and which of them face out each way. How far one shape slides
 * past another depends only on the two shapes and their offset, so a book of shapes and
 * of those distances serves every part of every assembly of a puzzle (BurrTools keeps
 * such a cache per puzzle too). */
typedef struct {
    int64_t size[3];
    uint8_t *occ;      /* size[0] * size[1] * size[2], x slowest */
    int64_t *front[6]; /* the cells facing out each way: rows of x y z */
    int64_t nfront[6];
} Shape;

#define SHAPE_BITS 14
#define MAX_SHAPES (1 << SHAPE_BITS)
#define OFF_BITS 11
#define OFF_LIMIT ((int64_t)1 << (OFF_BITS - 1))

typedef struct {
    int dims, dirs;
    Shape *shapes;
    int nshapes, scap;
    /* free distances per pair of shapes (a <= b) and offset: keys, and dirs values a key */
    uint64_t *ckey;
    int32_t *cval;
    size_t ccap, cused;
    long long computed; /* pairs worked out (the cache's misses) */
    long long cleared;  /* times the cache was emptied to stay under its bound */
} Book;

static void book_free(Book *b) {
    if (!b) return;
    for (int s = 0; s < b->nshapes; s++) {
        free(b->shapes[s].occ);
        for (int d = 0; d < 6; d++) free(b->shapes[s].front[d]);
    }
    free(b->shapes);
    free(b->ckey);
    free(b->cval);
    free(b);
}

static Book *book_new(int dims) {
    Book *b = calloc(1, sizeof(Book));
    if (!b) return NULL;
    b->dims = dims;
    b->dirs = 2 * dims;
    b->ccap = 1024;
    b->ckey = calloc(b->ccap, sizeof(uint64_t));
    b->cval = malloc(sizeof(int32_t) * b->ccap * (size_t)b->dirs);
    if (!b->ckey || !b->cval) {
        book_free(b);
        return NULL;
    }
    return b;
}

static size_t book_bytes(const Book *b) {
    return b->ccap * (sizeof(uint64_t) + sizeof(int32_t) * (size_t)b->dirs);
}

/* Add the shape of ``count`` cells (rows of x y z); its low corner goes to ``lo``. The
 * shape's number, -1 out of memory, -2 when the book is full. */
static int book_add(Book *b, const int64_t *vox, int64_t count, int64_t *lo) {
    if (b->nshapes >= MAX_SHAPES) return -2;
    if (b->nshapes == b->scap) {
        int cap = b->scap ? 2 * b->scap : 16;
        Shape *grown = realloc(b->shapes, sizeof(Shape) * (size_t)cap);
        if (!grown) return -1;
        b->shapes = grown;
        b->scap = cap;
    }
    Shape *s = b->shapes + b->nshapes;
    memset(s, 0, sizeof *s);
    for (int a = 0; a < 3; a++) {
        int64_t l = INT64_MAX, h = INT64_MIN;
        for (int64_t v = 0; v < count; v++) {
            if (vox[3 * v + a] < l) l = vox[3 * v + a];
            if (vox[3 * v + a] > h) h = vox[3 * v + a];
        }
        lo[a] = l;
        s->size[a] = h - l + 1;
    }
    const int64_t *size = s->size;
    uint8_t *occ = s->occ = calloc((size_t)(size[0] * size[1] * size[2]), 1);
    int ok = occ != NULL;
    if (ok)
        for (int64_t v = 0; v < count; v++)
            occ[((vox[3 * v] - lo[0]) * size[1] + vox[3 * v + 1] - lo[1]) * size[2] +
                vox[3 * v + 2] - lo[2]] = 1;
    for (int d = 0; ok && d < b->dirs; d++) {
        int axis = d >> 1, sign = (d & 1) ? -1 : 1;
        int64_t *rows = s->front[d] = malloc(sizeof(int64_t) * 3 * (size_t)count);
        if (!rows) {
            ok = 0;
            break;
        }
        int64_t used = 0;
        for (int64_t v = 0; v < count; v++) {
            int64_t c[3] = {vox[3 * v] - lo[0], vox[3 * v + 1] - lo[1], vox[3 * v + 2] - lo[2]};
            int64_t at = c[axis];
            c[axis] += sign;
            if (c[axis] >= 0 && c[axis] < size[axis] &&
                occ[(c[0] * size[1] + c[1]) * size[2] + c[2]])
                continue; /* my next cell that way looks on from nearer */
            c[axis] = at;
            memcpy(rows + 3 * used++, c, sizeof c);
        }
        s->nfront[d] = used;
    }
    if (!ok) {
        free(s->occ);
        for (int d = 0; d < 6; d++) free(s->front[d]);
        return -1;
    }
    return b->nshapes++;
}

/* How far shape ``si`` can slide along each direction past shape ``sj``, sj's low corner at
 * ``off`` from si's (the least, over si's cells facing that way, of the empty cells before
 * sj's next cell on its line; FREE_DIST when it meets none). */
static void pair_free(const Book *b, int si, int sj, const int64_t *off, int32_t *out) {
    const Shape *mine = b->shapes + si, *theirs = b->shapes + sj;
    const int64_t *size = theirs->size;
    const uint8_t *occ = theirs->occ;
    for (int d = 0; d < b->dirs; d++) {
        int axis = d >> 1, a1 = axis == 0 ? 1 : 0, a2 = axis == 2 ? 1 : 2;
        int64_t best = FREE_DIST;
        const int64_t *rows = mine->front[d];
        int64_t count = mine->nfront[d];
        for (int64_t r = 0; r < count && best > 0; r++) {
            int64_t q[3]; /* the cell in sj's box */
            for (int a = 0; a < 3; a++) q[a] = rows[3 * r + a] - off[a];
            if (q[a1] < 0 || q[a1] >= size[a1] || q[a2] < 0 || q[a2] >= size[a2]) continue;
            int64_t stride = axis == 0 ? size[1] * size[2] : axis == 1 ? size[2] : 1;
            int64_t base = (q[0] * size[1] + q[1]) * size[2] + q[2] - q[axis] * stride;
            if (d & 1) {
                int64_t x = q[axis] - 1 < size[axis] - 1 ? q[axis] - 1 : size[axis] - 1;
                for (; x >= 0 && q[axis] - 1 - x < best; x--)
                    if (occ[base + x * stride]) {
                        best = q[axis] - 1 - x;
                        break;
                    }
            } else {
                int64_t x = q[axis] + 1 > 0 ? q[axis] + 1 : 0;
                for (; x < size[axis] && x - q[axis] - 1 < best; x++)
                    if (occ[base + x * stride]) {
                        best = x - q[axis] - 1;
                        break;
                    }
            }
        }
        out[d] = (int32_t)best;
    }
}

/* Where a key of the book's cache is looked for first: the high half of one product. */
static size_t book_slot(uint64_t key) {
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32);
}

/* The book's values for shapes si <= sj, sj at ``off`` from si (worked out on the first
 * ask); NULL out of memory. The cache holds at most ``max_cache`` bytes (negative: no
 * bound): past it, it is emptied and begins again (each value can be worked out anew). */
static const int32_t *pair_cached(Book *b, int si, int sj, const int64_t *off, int32_t *spare,
                                  int64_t max_cache) {
    for (int a = 0; a < 3; a++)
        if (off[a] <= -OFF_LIMIT || off[a] >= OFF_LIMIT) { /* too far to key: not kept */
            b->computed++;
            pair_free(b, si, sj, off, spare);
            return spare;
        }
    uint64_t key = ((uint64_t)1 << 63) | ((uint64_t)si << (3 * OFF_BITS + SHAPE_BITS)) |
                   ((uint64_t)sj << (3 * OFF_BITS)) |
                   ((uint64_t)(off[0] + OFF_LIMIT) << (2 * OFF_BITS)) |
                   ((uint64_t)(off[1] + OFF_LIMIT) << OFF_BITS) | (uint64_t)(off[2] + OFF_LIMIT);
    size_t mask = b->ccap - 1, h = book_slot(key) & mask;
    while (b->ckey[h]) {
        if (b->ckey[h] == key) return b->cval + h * (size_t)b->dirs;
        h = (h + 1) & mask;
    }
    if (2 * (b->cused + 1) > b->ccap) {
        if (max_cache >= 0 && 2 * book_bytes(b) > (size_t)max_cache) {
            /* at its bound: begin again rather than grow */
            memset(b->ckey, 0, sizeof(uint64_t) * b->ccap);
            b->cused = 0;
            b->cleared++;
        } else { /* grow, then find the slot again */
            size_t cap = 2 * b->ccap;
            uint64_t *keys = calloc(cap, sizeof(uint64_t));
            int32_t *vals = malloc(sizeof(int32_t) * cap * (size_t)b->dirs);
            if (!keys || !vals) {
                free(keys);
                free(vals);
                return NULL;
            }
            for (size_t k = 0; k < b->ccap; k++) {
                if (!b->ckey[k]) continue;
                size_t g = book_slot(b->ckey[k]) & (cap - 1);
                while (keys[g]) g = (g + 1) & (cap - 1);
                keys[g] = b->ckey[k];
                memcpy(vals + g * (size_t)b->dirs, b->cval + k * (size_t)b->dirs,
                       sizeof(int32_t) * (size_t)b->dirs);
            }
            free(b->ckey);
            free(b->cval);
            b->ckey = keys;
            b->cval = vals;
            b->ccap = cap;
        }
        mask = b->ccap - 1;
        h = book_slot(key) & mask;
        while (b->ckey[h]) h = (h + 1) & mask;
    }
    b->ckey[h] = key;
    b->cused++;
    b->computed++;
    int32_t *out = b->cval + h * (size_t)b->dirs;
    pair_free(b, si, sj, off, out);
    return out;
}

/* -- one part: its pieces and the scratch space of a step ------------------------------- */

typedef struct {
    int n, dims, dirs, P; /* pieces, axes, directions, ints per position (3n) */
    uint64_t fixed, full;
    Book *book;
    int32_t *sid;      /* each piece's shape in the book */
    int64_t *org;      /* 3 per piece: its shape's low corner where the part starts */
    int64_t max_cache; /* the bound of the book's cache, bytes (negative: none) */
    int64_t *reach;    /* dirs * n * n: a direction's pair distances (64 or more) */
    uint64_t *edges;   /* the closure's scratch: masks by distance, all zero */
    uint64_t *clos, *done;
    uint64_t *drags;   /* dirs * n: what each piece drags along each way, at some distance */
    int32_t *pv;       /* each pair's free distances (i < j, 6 a pair), as i moves past j */
    int64_t *hv;       /* the histories (blocking): dirs * n * n distances, */
    uint64_t *hm;      /* what is dragged from each on, */
    int *hn;           /* and how many, dirs * n */
    uint64_t *lv;      /* the levels of a direction with a distance of 64 or more */
    int64_t *vals;     /* the distinct finite distances of a direction, n * n at most */
    int64_t *found;    /* separations: rows (single, moving, direction) */
    int64_t *out;      /* separations in order: rows (moving, direction) */
    int nsplits;
    int64_t *mv;       /* moves: rows (mask, direction, distance) */
    size_t mv_cap, nmoves;
} Part;

/* A part of ``n`` pieces: piece k is shape sid[k] of ``book`` with its low corner at
 * org[3k .. 3k + 2]. */
static int part_init(Part *p, Book *book, const int32_t *sid, const int64_t *org, int n,
                     uint64_t fixed) {
    memset(p, 0, sizeof *p);
    p->n = n;
    p->dims = book->dims;
    p->dirs = book->dirs;
    p->P = 3 * n;
    p->fixed = fixed;
    p->full = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    p->book = book;
    p->max_cache = -1;
    p->sid = malloc(sizeof(int32_t) * (size_t)n);
    p->org = malloc(sizeof(int64_t) * 3 * (size_t)n);
    p->reach = malloc(sizeof(int64_t) * (size_t)(p->dirs * n * n));
    /* the closure's masks by direction and distance, kept all zero between steps */
    p->edges = calloc((size_t)p->dirs * 64 * (size_t)n, sizeof(uint64_t));
    p->pv = malloc(sizeof(int32_t) * 6 * (size_t)(n * (n - 1) / 2 + 1));
    p->hv = malloc(sizeof(int64_t) * (size_t)(p->dirs * n * n));
    p->hm = malloc(sizeof(uint64_t) * (size_t)(p->dirs * n * n));
    p->hn = malloc(sizeof(int) * (size_t)(p->dirs * n));
    p->lv = malloc(sizeof(uint64_t) * (size_t)(n * n * n));
    p->clos = malloc(sizeof(uint64_t) * 2 * (size_t)n);
    p->drags = malloc(sizeof(uint64_t) * (size_t)(p->dirs * n));
    p->vals = malloc(sizeof(int64_t) * (size_t)(n * n));
    p->found = malloc(sizeof(int64_t) * 3 * (size_t)(p->dirs * n));
    p->out = malloc(sizeof(int64_t) * 2 * (size_t)(p->dirs * n));
    p->mv_cap = 64;
    p->mv = malloc(sizeof(int64_t) * 3 * p->mv_cap);
    if (!p->sid || !p->org || !p->reach || !p->edges || !p->clos || !p->drags ||
        !p->pv || !p->hv || !p->hm || !p->hn || !p->lv ||
        !p->vals || !p->found ||
        !p->out || !p->mv)
        return -1;
    p->done = p->clos + n;
    memcpy(p->sid, sid, sizeof(int32_t) * (size_t)n);
    memcpy(p->org, org, sizeof(int64_t) * 3 * (size_t)n);
    return 0;
}

static void part_free(Part *p) {
    free(p->sid);
    free(p->org);
    free(p->reach);
    free(p->edges);
    free(p->clos);
    free(p->drags);
    free(p->pv);
    free(p->hv);
    free(p->hm);
    free(p->hn);
    free(p->lv);
    free(p->vals);
    free(p->found);
    free(p->out);
    free(p->mv);
}

#define R(p, d, i, j) ((p)->reach[((size_t)(d) * (p)->n + (i)) * (p)->n + (j)])

/* Piece q's history along direction d: the distances at which what it drags grows, and
 * what it drags from each on (each mask holds the ones before). */
#define HV(p, d, q) ((p)->hv + ((size_t)(d) * (p)->n + (q)) * (p)->n)
#define HM(p, d, q) ((p)->hm + ((size_t)(d) * (p)->n + (q)) * (p)->n)
#define HN(p, d, q) ((p)->hn[(size_t)(d) * (p)->n + (q)])

static void history_add(Part *p, int d, int q, int64_t v, uint64_t mask) {
    int at = HN(p, d, q);
    if (at && HV(p, d, q)[at - 1] == v) {
        HM(p, d, q)[at - 1] = mask;
    } else {
        HV(p, d, q)[at] = v;
        HM(p, d, q)[at] = mask;
        HN(p, d, q) = at + 1;
    }
}

/* _kernel.blocking, kept as histories: the least distance at which piece i sliding along d
 * drags piece j, from the pairs' free distances (the book's), then closed: what i drags,
 * drags on in turn, so j is dragged at the least, over chains from i to j, of the largest
 * free distance along the chain (a bottleneck path). Worked out a distance at a time: j is
 * dragged at the t-th smallest distance when it is reachable from i by pairs no freer
 * than that, a transitive closure of bit masks. What moves and separations ask of it is,
 * for each piece and direction, what it drags from each distance on (its history) and
 * what it drags at some distance (p->drags), where _kernel.blocking gives the matrix. */
static int blocking(Part *p, const int32_t *pos) {
    int n = p->n, dirs = p->dirs;
    int32_t spare[6];
    uint64_t present[6] = {0, 0, 0, 0, 0, 0};
    int big[6] = {0, 0, 0, 0, 0, 0};
    uint64_t *edges = p->edges; /* dirs x 64 distances x n masks, all zero between steps */
    int32_t *pv = p->pv;
    size_t pair = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++, pair++) {
            int si = p->sid[i], sj = p->sid[j];
            int64_t off[3];
            for (int a = 0; a < 3; a++)
                off[a] = (p->org[3 * j + a] + pos[3 * j + a]) - (p->org[3 * i + a] + pos[3 * i + a]);
            int swap = 0;
            if (si > sj) { /* the book keeps the pair the other way round */
                int t = si;
                si = sj;
                sj = t;
                for (int a = 0; a < 3; a++) off[a] = -off[a];
                swap = 1;
            }
            const int32_t *v = pair_cached(p->book, si, sj, off, spare, p->max_cache);
            if (!v) return -1;
            int32_t *mine = pv + pair * 6;
            for (int d = 0; d < dirs; d++) mine[d] = v[d ^ swap]; /* i moving d past j */
            for (int d = 0; d < dirs; d++) {
                int32_t there = mine[d], back = mine[d ^ 1]; /* j moving d: i moving back */
                if (there < 64) {
                    present[d] |= (uint64_t)1 << there;
                    edges[((size_t)d * 64 + there) * n + i] |= (uint64_t)1 << j;
                } else if (there < FREE_DIST) {
                    big[d] = 1;
                }
                if (back < 64) {
                    present[d] |= (uint64_t)1 << back;
                    edges[((size_t)d * 64 + back) * n + j] |= (uint64_t)1 << i;
                } else if (back < FREE_DIST) {
                    big[d] = 1;
                }
            }
        }
    uint64_t *clos = p->clos, *done = p->done, *rev = p->done;
    int64_t *vals = p->vals;
    for (int d = 0; d < dirs; d++) {
        for (int q = 0; q < n; q++) HN(p, d, q) = 0;
        if (!big[d]) {
            /* a distance at a time, ascending: each pair that makes a new link closes the
             * masks of what reaches its first piece (a word operation for each piece that
             * reaches it). A piece that drags more than half the pieces is *past*: no move
             * and no separation looks at it beyond that distance (moves stop where the
             * group passes half, separations take at most half), and whatever reaches it
             * is past too; so links from a piece past are not followed, and once every
             * piece is past the rest of the distances are not looked at. */
            int half = n / 2, left = n;
            uint64_t past = 0, levels = present[d];
            for (int i = 0; i < n; i++) {
                clos[i] = rev[i] = (uint64_t)1 << i;
                if (1 > half) { /* a part of one piece */
                    past |= (uint64_t)1 << i;
                    left--;
                }
            }
            while (levels) {
                int v = ctz64(levels);
                levels &= levels - 1;
                uint64_t *level = edges + ((size_t)d * 64 + v) * n;
                for (int i = 0; i < n; i++) {
                    uint64_t links = level[i];
                    level[i] = 0;
                    uint64_t ibit = (uint64_t)1 << i;
                    if (past & ibit) continue;
                    while (links) {
                        int j = ctz64(links);
                        links &= links - 1;
                        if (clos[i] >> j & 1) continue; /* i reaches j already */
                        uint64_t via = clos[j];
                        uint64_t who = rev[i] & ~past; /* the pieces that reach i */
                        while (who) {
                            int x = ctz64(who);
                            who &= who - 1;
                            uint64_t fresh = via & ~clos[x];
                            if (!fresh) continue;
                            clos[x] |= fresh;
                            history_add(p, d, x, v, clos[x]);
                            while (fresh) {
                                int y = ctz64(fresh);
                                fresh &= fresh - 1;
                                rev[y] |= (uint64_t)1 << x;
                            }
                            if (popcount64(clos[x]) > half) {
                                past |= (uint64_t)1 << x;
                                left--;
                            }
                        }
                        if (past & ibit) break;
                    }
                }
                if (!left) { /* every piece past: the masks of the distances left cleared */
                    while (levels) {
                        int w = ctz64(levels);
                        levels &= levels - 1;
                        memset(edges + ((size_t)d * 64 + w) * n, 0, sizeof(uint64_t) * (size_t)n);
                    }
                }
            }
            memcpy(p->drags + (size_t)d * n, clos, sizeof(uint64_t) * (size_t)n);
            continue;
        }
        /* some distance of 64 or more: the masks filled above are not used this way; the
         * distinct distances, ascending, one level each, from the pairs' distances */
        for (uint64_t levels = present[d]; levels; levels &= levels - 1)
            memset(edges + ((size_t)d * 64 + ctz64(levels)) * n, 0, sizeof(uint64_t) * (size_t)n);
        for (int i = 0; i < n; i++) R(p, d, i, i) = FREE_DIST;
        pair = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++, pair++) {
                R(p, d, i, j) = pv[pair * 6 + d];
                R(p, d, j, i) = pv[pair * 6 + (d ^ 1)];
            }
        int T = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (i == j) continue;
                int64_t v = R(p, d, i, j);
                if (v >= FREE_DIST) continue;
                int at = T;
                while (at > 0 && vals[at - 1] > v) at--;
                if (at > 0 && vals[at - 1] == v) continue;
                memmove(vals + at + 1, vals + at, sizeof(int64_t) * (size_t)(T - at));
                vals[at] = v;
                T++;
            }
        uint64_t *lv = p->lv; /* T levels of n masks */
        memset(lv, 0, sizeof(uint64_t) * (size_t)T * (size_t)n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) continue;
                int64_t v = R(p, d, i, j);
                if (v >= FREE_DIST) continue;
                int lo = 0, hi = T - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >> 1;
                    if (vals[mid] < v) lo = mid + 1;
                    else hi = mid;
                }
                lv[(size_t)lo * n + i] |= (uint64_t)1 << j;
            }
            clos[i] = done[i] = (uint64_t)1 << i;
        }
        for (int t = 0; t < T; t++) {
            uint64_t *level = lv + (size_t)t * n;
            for (int i = 0; i < n; i++) clos[i] |= level[i];
            for (int m = 0; m < n; m++) {
                uint64_t bit = (uint64_t)1 << m, via = clos[m];
                for (int i = 0; i < n; i++)
                    if (clos[i] & bit) clos[i] |= via;
            }
            for (int i = 0; i < n; i++)
                if (clos[i] != done[i]) {
                    done[i] = clos[i];
                    history_add(p, d, i, vals[t], clos[i]);
                }
        }
        memcpy(p->drags + (size_t)d * n, done, sizeof(uint64_t) * (size_t)n);
    }
    return 0;
}

static int movable(uint64_t mask, uint64_t full, uint64_t fixed) {
    return !((mask & fixed) != 0 && ((full ^ mask) & fixed) != 0);
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* _kernel.separations: rows (moving, direction) into p->out, single pieces first. */
static void separations(Part *p) {
    int n = p->n, half = n / 2, used = 0;
    uint64_t full = p->full, fixed = p->fixed;
    int64_t *found = p->found;
    for (int d = 0; d < p->dirs; d++)
        for (int q = 0; q < n; q++) {
            uint64_t mask = p->drags[d * n + q]; /* what q drags at some distance */
            if (popcount64(mask) > half) continue;
            uint64_t moving = mask;
            int direction = d;
            if (mask & fixed) {
                moving = full ^ mask;
                direction = d ^ 1;
            }
            if (moving & fixed) continue;
            uint64_t split = min_u64(moving, full ^ moving);
            int seen = 0;
            for (int r = 0; r < used; r++)
                if (min_u64((uint64_t)found[3 * r + 1], full ^ (uint64_t)found[3 * r + 1]) ==
                    split) {
                    seen = 1;
                    break;
                }
            if (seen) continue;
            found[3 * used] = (moving & (moving - 1)) == 0;
            found[3 * used + 1] = (int64_t)moving;
            found[3 * used + 2] = direction;
            used++;
        }
    int k = 0;
    for (int want = 1; want >= 0; want--)
        for (int r = 0; r < used; r++)
            if (found[3 * r] == want) {
                p->out[2 * k] = found[3 * r + 1];
                p->out[2 * k + 1] = found[3 * r + 2];
                k++;
            }
    p->nsplits = used;
}

static int push_move(Part *p, uint64_t mask, int d, int64_t k) {
    if (p->nmoves == p->mv_cap) {
        int64_t *grown = realloc(p->mv, sizeof(int64_t) * 3 * 2 * p->mv_cap);
        if (!grown) return -1;
        p->mv = grown;
        p->mv_cap *= 2;
    }
    int64_t *row = p->mv + 3 * p->nmoves++;
    row[0] = (int64_t)mask;
    row[1] = d;
    row[2] = k;
    return 0;
}

/* _kernel.moves: rows (mask, direction, distance) into p->mv, in the reference's order. */
static int moves(Part *p) {
    int n = p->n, half = n / 2;
    uint64_t full = p->full, fixed = p->fixed;
    p->nmoves = 0;
    for (int d = 0; d < p->dirs; d++) {
        size_t first = p->nmoves;
        for (int q = 0; q < n; q++) {
            /* what q drags from each distance on: the group of distance k is what it drags
             * from the distances below k; it moves every distance up to where the group
             * passes half the pieces (else up to its last distance) */
            int count = HN(p, d, q);
            const int64_t *hv = HV(p, d, q);
            const uint64_t *hm = HM(p, d, q);
            int64_t most = 0;
            if (half + 1 <= 1) {
                most = 0;
            } else {
                int h = 0;
                while (h < count && popcount64(hm[h]) < half + 1) h++;
                most = h < count ? hv[h] : count ? hv[count - 1] : 0;
            }
            uint64_t mask = (uint64_t)1 << q;
            int at = 0;
            for (int64_t k = 1; k <= most; k++) {
                while (at < count && hv[at] < k) mask = hm[at++];
                int known = 0;
                for (size_t r = first; r < p->nmoves; r++)
                    if (p->mv[3 * r + 2] == k && (uint64_t)p->mv[3 * r] == mask) {
                        known = 1;
                        break;
                    }
                if (known || !movable(mask, full, fixed)) continue;
                if (push_move(p, mask, d, k) < 0) return -1;
                /* merged with the groups met before, the newest first (_Part.moves) */
                for (size_t back = p->nmoves - 1; back > first; back--) {
                    size_t r = back - 1;
                    if (p->mv[3 * r + 2] != k) continue;
                    uint64_t other = (uint64_t)p->mv[3 * r];
                    uint64_t uni = other | mask;
                    if (uni == other || uni == mask || uni == full) continue;
                    if (!movable(uni, full, fixed)) continue;
                    int dup = 0;
                    for (size_t s = first; s < p->nmoves; s++)
                        if (p->mv[3 * s + 2] == k && (uint64_t)p->mv[3 * s] == uni) {
                            dup = 1;
                            break;
                        }
                    if (dup) continue;
                    if (push_move(p, uni, d, k) < 0) return -1;
                }
            }
        }
    }
    return 0;
}

/* _kernel.shifted for one move: the position after it, relative to piece 0 again. */
static void shifted(const Part *p, const int32_t *pos, const int64_t *move, int32_t *out) {
    uint64_t mask = (uint64_t)move[0];
    int axis = (int)(move[1] >> 1);
    int32_t step = (int32_t)((move[1] & 1) ? -move[2] : move[2]);
    memcpy(out, pos, sizeof(int32_t) * (size_t)p->P);
    for (int k = 0; k < p->n; k++)
        if ((mask >> k) & 1) out[3 * k + axis] += step;
    int32_t base = out[axis];
    if (base != 0)
        for (int k = 0; k < p->n; k++) out[3 * k + axis] -= base;
}

/* The step at one position: 1 when it holds separations (p->out), 0 with its moves (p->mv),
 * -1 out of memory. */
static int step(Part *p, const int32_t *pos) {
    if (blocking(p, pos) < 0) return -1;
    separations(p);
    if (p->nsplits) return 1;
    return moves(p) < 0 ? -1 : 0;
}

/* -- arguments ------------------------------------------------------------------------ */

typedef struct {
    Py_buffer vox, starts;
    int held;
} Pieces;

static void pieces_release(Pieces *a) {
    if (a->held > 0) PyBuffer_Release(&a->vox);
    if (a->held > 1) PyBuffer_Release(&a->starts);
    a->held = 0;
}

/* voxels (int64, rows of 3) and starts (int64, n + 1): the part's pieces. */
static int pieces_get(PyObject *vox, PyObject *starts, Pieces *a, int *n) {
    a->held = 0;
    if (PyObject_GetBuffer(vox, &a->vox, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    a->held = 1;
    if (PyObject_GetBuffer(starts, &a->starts, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    a->held = 2;
    if (a->vox.itemsize != 8 || a->starts.itemsize != 8 || a->vox.len % 24) {
        PyErr_SetString(PyExc_TypeError, "voxels and starts must be int64 arrays");
        return -1;
    }
    Py_ssize_t count = a->starts.len / 8 - 1;
    const int64_t *s = a->starts.buf;
    if (count < 1 || count > MAX_PIECES || s[0] != 0 || s[count] != a->vox.len / 24) {
        PyErr_SetString(PyExc_ValueError, "starts must run from 0 to the number of voxels, "
                                          "for 1 to 62 pieces");
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++)
        if (s[k + 1] <= s[k]) {
            PyErr_SetString(PyExc_ValueError, "every piece needs a voxel");
            return -1;
        }
    *n = (int)count;
    return 0;
}

/* A position from a Python sequence of 3n ints. */
static int position_get(PyObject *seq, int P, int32_t *out) {
    PyObject *fast = PySequence_Fast(seq, "a position is a sequence of ints");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != P) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a position has 3 ints per piece");
        return -1;
    }
    for (int i = 0; i < P; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (x < -(1L << 30) || x > (1L << 30)) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_OverflowError, "a position's offset is out of range");
            return -1;
        }
        out[i] = (int32_t)x;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *position_tuple(const int32_t *pos, int P) {
    PyObject *t = PyTuple_New(P);
    if (!t) return NULL;
    for (int i = 0; i < P; i++) {
        PyObject *x = PyLong_FromLong(pos[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *splits_list(const Part *p) {
    PyObject *list = PyList_New(p->nsplits);
    if (!list) return NULL;
    for (int r = 0; r < p->nsplits; r++) {
        PyObject *row = Py_BuildValue("(KL)", (unsigned long long)p->out[2 * r],
                                      (long long)p->out[2 * r + 1]);
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, r, row);
    }
    return list;
}

static PyObject *move_tuple(const int64_t *m) {
    return Py_BuildValue("(KLL)", (unsigned long long)m[0], (long long)m[1], (long long)m[2]);
}

/* A book of a part's own pieces, one shape each (the calls that give voxels and starts):
 * each piece's shape into sid[k], its low corner into org[3k ..]; NULL out of memory. */
static Book *book_of(const int64_t *vox, const int64_t *starts, int n, int dims, int32_t *sid,
                     int64_t *org) {
    Book *b = book_new(dims);
    if (!b) return NULL;
    for (int k = 0; k < n; k++) {
        int s = book_add(b, vox + 3 * starts[k], starts[k + 1] - starts[k], org + 3 * k);
        if (s < 0) {
            book_free(b);
            return NULL;
        }
        sid[k] = s;
    }
    return b;
}

/* -- expand ------------------------------------------------------------------------------ */

static PyObject *py_expand(PyObject *self, PyObject *args) {
    PyObject *vox, *starts, *posobj;
    int dims;
    unsigned long long fixed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiKO", &vox, &starts, &dims, &fixed, &posobj)) return NULL;
    if (dims < 1 || dims > 3) return PyErr_Format(PyExc_ValueError, "dims is 1 to 3");
    Pieces a;
    int n;
    PyObject *result = NULL;
    Part p;
    Book *book = NULL;
    int32_t sid[MAX_PIECES];
    int64_t org[3 * MAX_PIECES];
    int32_t *pos = NULL, *next = NULL;
    memset(&p, 0, sizeof p);
    if (pieces_get(vox, starts, &a, &n) < 0) {
        pieces_release(&a);
        return NULL;
    }
    memset(&p, 0, sizeof p);
    book = book_of(a.vox.buf, a.starts.buf, n, dims, sid, org);
    if (!book || part_init(&p, book, sid, org, n, fixed) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    pos = malloc(sizeof(int32_t) * 2 * (size_t)p.P);
    if (!pos) {
        PyErr_NoMemory();
        goto done;
    }
    next = pos + p.P;
    if (position_get(posobj, p.P, pos) < 0) goto done;
    int found = step(&p, pos);
    if (found < 0) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *splits = found ? splits_list(&p) : PyList_New(0);
    PyObject *steps = PyList_New(found ? 0 : (Py_ssize_t)p.nmoves);
    if (!splits || !steps) {
        Py_XDECREF(splits);
        Py_XDECREF(steps);
        goto done;
    }
    if (!found)
        for (size_t r = 0; r < p.nmoves; r++) {
            shifted(&p, pos, p.mv + 3 * r, next);
            PyObject *where = position_tuple(next, p.P);
            PyObject *how = move_tuple(p.mv + 3 * r);
            PyObject *row = (where && how) ? PyTuple_Pack(2, where, how) : NULL;
            Py_XDECREF(where);
            Py_XDECREF(how);
            if (!row) {
                Py_DECREF(splits);
                Py_DECREF(steps);
                goto done;
            }
            PyList_SET_ITEM(steps, (Py_ssize_t)r, row);
        }
    result = PyTuple_Pack(2, splits, steps);
    Py_DECREF(splits);
    Py_DECREF(steps);
done:
    free(pos);
    part_free(&p);
    book_free(book);
    pieces_release(&a);
    return result;
}

/* -- the breadth-first search ------------------------------------------------------------ */

typedef struct {
    int32_t *pos;     /* P ints per node */
    int64_t *parent;  /* -1 for the start */
    int64_t *move;    /* 3 per node: mask, direction, distance */
    size_t count, cap;
    int64_t *table;   /* open addressing: node index + 1, 0 empty */
    size_t tcap, tused;
} Nodes;

static uint64_t hash_pos(const int32_t *pos, int P) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < P; i++) {
        h ^= (uint64_t)(uint32_t)pos[i];
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

static int nodes_grow(Nodes *s, int P) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    int32_t *pos = realloc(s->pos, sizeof(int32_t) * (size_t)P * cap);
    if (!pos) return -1;
    s->pos = pos;
    int64_t *parent = realloc(s->parent, sizeof(int64_t) * cap);
    if (!parent) return -1;
    s->parent = parent;
    int64_t *move = realloc(s->move, sizeof(int64_t) * 3 * cap);
    if (!move) return -1;
    s->move = move;
    s->cap = cap;
    return 0;
}

/* Index ``node`` in the table (its position already stored). */
static void table_put(Nodes *s, int P, size_t node) {
    size_t mask = s->tcap - 1;
    size_t h = (size_t)hash_pos(s->pos + (size_t)P * node, P) & mask;
    while (s->table[h]) h = (h + 1) & mask;
    s->table[h] = (int64_t)node + 1;
    s->tused++;
}

/* The table at twice the size, holding only the nodes from ``live`` on (the others are
 * never asked for again). */
static int table_rebuild(Nodes *s, int P, size_t live, size_t want) {
    size_t cap = 64;
    while (cap < 4 * want + 4) cap *= 2; /* at most a quarter full after a rebuild */
    free(s->table);
    s->table = calloc(cap, sizeof(int64_t));
    if (!s->table) return -1;
    s->tcap = cap;
    s->tused = 0;
    for (size_t k = live; k < s->count; k++) table_put(s, P, k);
    return 0;
}

/* Is ``pos`` among the nodes from ``live`` on? */
static int table_has(const Nodes *s, int P, const int32_t *pos, size_t live) {
    size_t mask = s->tcap - 1;
    size_t h = (size_t)hash_pos(pos, P) & mask;
    while (s->table[h]) {
        size_t k = (size_t)(s->table[h] - 1);
        if (k >= live && memcmp(s->pos + (size_t)P * k, pos, sizeof(int32_t) * (size_t)P) == 0)
            return 1;
        h = (h + 1) & mask;
    }
    return 0;
}

/* The bytes a walk holds: its nodes (position, parent, move), the table that finds them and
 * the book's cache of pair distances, as allocated (capacities, not counts). */
static size_t held_bytes(const Part *p, const Nodes *s) {
    return s->cap * (sizeof(int32_t) * (size_t)p->P + sizeof(int64_t) * 4) +
           s->tcap * sizeof(int64_t) + book_bytes(p->book);
}

static void nodes_free(Nodes *s) {
    free(s->pos);
    free(s->parent);
    free(s->move);
    free(s->table);
}

/* A breadth-first walk over one part's positions that stops at each position holding a
 * separation and can go on from there (a thorough search tries the next one when the
 * parts of a separation do not come apart). */
typedef struct {
    Pieces a;         /* given voxels and starts: the arrays, held while the walk lives */
    Book *own;        /* ... and a book of the part's own pieces */
    PyObject *shared; /* given a book: its capsule, held while the walk lives */
    Part p;
    Nodes s;
    /* the fronts: older [prev, begin), current [begin, end), newer [end, count); the next
     * position to look at is ``cursor``; ``counted``: the current front is in the budget */
    size_t prev, begin, end, cursor;
    int counted;
} Walk;

static void walk_free(Walk *w) {
    nodes_free(&w->s);
    part_free(&w->p);
    pieces_release(&w->a);
    book_free(w->own);
    Py_XDECREF(w->shared);
    free(w);
}

static void walk_capsule_free(PyObject *capsule) {
    Walk *w = PyCapsule_GetPointer(capsule, "puzzlebox.disassembly.walk");
    if (w) walk_free(w);
}

/* On from the cursor to the next position that holds a separation (ST_FOUND, *where, its
 * separations in p->out), or to the end (ST_NONE); ST_STATES past ``max_states``
 * positions, counted a front at a time (as search.py's budget counts them); ST_MEMORY once
 * what the walk holds (held_bytes) would pass ``max_bytes`` (negative: no bound), looked at
 * before each of its arrays grows; ST_TIME past the deadline and ST_SIGNAL when a signal's
 * handler raised, both checked every 1,024 positions; -1 out of memory. Runs without the
 * GIL. */
static int walk_run(Walk *w, int64_t *visited, int64_t max_states, double deadline,
                    int64_t max_bytes, size_t *where) {
    Part *p = &w->p;
    Nodes *s = &w->s;
    int P = p->P;
    while (w->begin < w->end) {
        if (!w->counted) {
            *visited += (int64_t)(w->end - w->begin);
            if (*visited > max_states) return ST_STATES;
            if (deadline >= 0 && now_seconds() > deadline) return ST_TIME;
            if (signalled()) return ST_SIGNAL;
            w->counted = 1;
        }
        for (; w->cursor < w->end; w->cursor++) {
            size_t node = w->cursor;
            if ((node - w->begin) % 1024 == 1023) { /* a front may hold millions */
                if (deadline >= 0 && now_seconds() > deadline) return ST_TIME;
                if (signalled()) return ST_SIGNAL;
            }
            int found = step(p, s->pos + (size_t)P * node);
            if (found < 0) return -1;
            if (found) { /* not moved on from: the parts could drift for ever */
                *where = node;
                w->cursor++;
                return ST_FOUND;
            }
            for (size_t r = 0; r < p->nmoves; r++) {
                if (s->count == s->cap) {
                    /* the nodes double, and the table may follow: bounded before, not after */
                    if (max_bytes >= 0 &&
                        2 * held_bytes(p, s) > (size_t)max_bytes) return ST_MEMORY;
                    if (nodes_grow(s, P) < 0) return -1;
                }
                int32_t *next = s->pos + (size_t)P * s->count;
                shifted(p, s->pos + (size_t)P * node, p->mv + 3 * r, next);
                if (table_has(s, P, next, w->prev)) continue;
                s->parent[s->count] = (int64_t)node;
                memcpy(s->move + 3 * s->count, p->mv + 3 * r, sizeof(int64_t) * 3);
                s->count++;
                if (2 * (s->tused + 1) > s->tcap) {
                    if (table_rebuild(s, P, w->prev, s->count - w->prev) < 0) return -1;
                } else {
                    table_put(s, P, s->count - 1);
                }
            }
        }
        w->prev = w->begin;
        w->begin = w->end;
        w->end = s->count;
        w->cursor = w->begin;
        w->counted = 0;
    }
    return ST_NONE;
}

/* The walk's first node, ``start``: 0, or -1 with an exception (the walk is freed). */
static int walk_begin(Walk *w, PyObject *posobj) {
    if (nodes_grow(&w->s, w->p.P) < 0 || table_rebuild(&w->s, w->p.P, 0, 1) < 0) {
        walk_free(w);
        PyErr_NoMemory();
        return -1;
    }
    if (position_get(posobj, w->p.P, w->s.pos) < 0) {
        walk_free(w);
        return -1;
    }
    w->s.parent[0] = -1;
    w->s.move[0] = w->s.move[1] = w->s.move[2] = 0;
    w->s.count = 1;
    table_put(&w->s, w->p.P, 0);
    w->end = 1;
    return 0;
}

/* A walk from ``start`` over pieces given as voxels and starts; NULL with an exception. */
static Walk *walk_new(PyObject *vox, PyObject *starts, int dims, uint64_t fixed,
                      PyObject *posobj) {
    if (dims < 1 || dims > 3) {
        PyErr_SetString(PyExc_ValueError, "dims is 1 to 3");
        return NULL;
    }
    Walk *w = calloc(1, sizeof(Walk));
    if (!w) {
        PyErr_NoMemory();
        return NULL;
    }
    int n;
    if (pieces_get(vox, starts, &w->a, &n) < 0) {
        walk_free(w);
        return NULL;
    }
    int32_t sid[MAX_PIECES];
    int64_t org[3 * MAX_PIECES];
    w->own = book_of(w->a.vox.buf, w->a.starts.buf, n, dims, sid, org);
    if (!w->own || part_init(&w->p, w->own, sid, org, n, fixed) < 0) {
        walk_free(w);
        PyErr_NoMemory();
        return NULL;
    }
    return walk_begin(w, posobj) < 0 ? NULL : w;
}

static Book *book_from(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "puzzlebox.disassembly.book");
}

/* A walk from ``start`` over shapes of a book (``sids``), their low corners at ``origins``
 * (3 ints a piece); NULL with an exception. */
static Walk *walk_new_in(PyObject *capsule, PyObject *sids, PyObject *origins, uint64_t fixed,
                         PyObject *posobj) {
    Book *book = book_from(capsule);
    if (!book) return NULL;
    PyObject *fast = PySequence_Fast(sids, "shapes are a sequence of ints");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int32_t sid[MAX_PIECES];
    int64_t org[3 * MAX_PIECES];
    if (n < 1 || n > MAX_PIECES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a part has 1 to 62 pieces");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (s == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (s < 0 || s >= book->nshapes) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "no such shape in the book");
            return NULL;
        }
        sid[k] = (int32_t)s;
    }
    Py_DECREF(fast);
    int32_t at[3 * MAX_PIECES];
    if (position_get(origins, 3 * (int)n, at) < 0) return NULL;
    for (Py_ssize_t k = 0; k < 3 * n; k++) org[k] = at[k];
    Walk *w = calloc(1, sizeof(Walk));
    if (!w) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_INCREF(capsule);
    w->shared = capsule;
    if (part_init(&w->p, book, sid, org, (int)n, fixed) < 0) {
        walk_free(w);
        PyErr_NoMemory();
        return NULL;
    }
    return walk_begin(w, posobj) < 0 ? NULL : w;
}

/* walk_run from Python: (status, visited, position, splits, path). */
static PyObject *walk_step(Walk *w, long long visited, long long max_states, double seconds,
                           long long max_bytes) {
    double deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    int64_t count = visited;
    w->p.max_cache = max_bytes < 0 ? -1 : (int64_t)max_bytes / 4;
    size_t where = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = walk_run(w, &count, max_states, deadline, (int64_t)max_bytes, &where);
    Py_END_ALLOW_THREADS
    if (status == ST_SIGNAL) return NULL; /* the handler's exception is set */
    if (status < 0) return PyErr_NoMemory();
    if (status != ST_FOUND)
        return Py_BuildValue("(iLOOO)", status, (long long)count, Py_None, Py_None, Py_None);
    const Nodes *s = &w->s;
    size_t depth = 0;
    for (int64_t k = (int64_t)where; s->parent[k] >= 0; k = s->parent[k]) depth++;
    PyObject *path = PyList_New((Py_ssize_t)depth);
    PyObject *splits = splits_list(&w->p);
    PyObject *at = position_tuple(s->pos + (size_t)w->p.P * where, w->p.P);
    if (!path || !splits || !at) {
        Py_XDECREF(path);
        Py_XDECREF(splits);
        Py_XDECREF(at);
        return NULL;
    }
    size_t i = depth;
    for (int64_t k = (int64_t)where; s->parent[k] >= 0; k = s->parent[k]) {
        PyObject *m = move_tuple(s->move + 3 * k);
        if (!m) {
            Py_DECREF(path);
            Py_DECREF(splits);
            Py_DECREF(at);
            return NULL;
        }
        PyList_SET_ITEM(path, (Py_ssize_t)--i, m);
    }
    return Py_BuildValue("(iLNNN)", status, (long long)count, at, splits, path);
}

static PyObject *py_bfs(PyObject *self, PyObject *args) {
    PyObject *vox, *starts, *posobj;
    int dims;
    unsigned long long fixed;
    long long visited, max_states, max_bytes = -1;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiKOLLd|L", &vox, &starts, &dims, &fixed, &posobj, &visited,
                          &max_states, &seconds, &max_bytes))
        return NULL;
    Walk *w = walk_new(vox, starts, dims, fixed, posobj);
    if (!w) return NULL;
    PyObject *result = walk_step(w, visited, max_states, seconds, max_bytes);
    walk_free(w);
    return result;
}

static PyObject *py_walk(PyObject *self, PyObject *args) {
    PyObject *vox, *starts, *posobj;
    int dims;
    unsigned long long fixed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiKO", &vox, &starts, &dims, &fixed, &posobj)) return NULL;
    Walk *w = walk_new(vox, starts, dims, fixed, posobj);
    if (!w) return NULL;
    PyObject *capsule = PyCapsule_New(w, "puzzlebox.disassembly.walk", walk_capsule_free);
    if (!capsule) walk_free(w);
    return capsule;
}

static void book_capsule_free(PyObject *capsule) {
    book_free(book_from(capsule));
}

static PyObject *py_book(PyObject *self, PyObject *args) {
    int dims;
    (void)self;
    if (!PyArg_ParseTuple(args, "i", &dims)) return NULL;
    if (dims < 1 || dims > 3) return PyErr_Format(PyExc_ValueError, "dims is 1 to 3");
    Book *b = book_new(dims);
    if (!b) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(b, "puzzlebox.disassembly.book", book_capsule_free);
    if (!capsule) book_free(b);
    return capsule;
}

static PyObject *py_book_add(PyObject *self, PyObject *args) {
    PyObject *capsule, *vox;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &vox)) return NULL;
    Book *b = book_from(capsule);
    if (!b) return NULL;
    Py_buffer buf;
    if (PyObject_GetBuffer(vox, &buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (buf.itemsize != 8 || buf.len % 24 || buf.len == 0) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_TypeError, "voxels must be an int64 array of rows x y z");
        return NULL;
    }
    int64_t lo[3];
    int s = book_add(b, buf.buf, (int64_t)(buf.len / 24), lo);
    PyBuffer_Release(&buf);
    if (s == -1) return PyErr_NoMemory();
    if (s == -2) return Py_BuildValue("(i(LLL))", -1, 0LL, 0LL, 0LL);
    return Py_BuildValue("(i(LLL))", s, (long long)lo[0], (long long)lo[1], (long long)lo[2]);
}

static PyObject *py_book_info(PyObject *self, PyObject *capsule) {
    (void)self;
    Book *b = book_from(capsule);
    if (!b) return NULL;
    return Py_BuildValue("{s:i,s:n,s:L,s:L,s:n}", "shapes", b->nshapes, "pairs",
                         (Py_ssize_t)b->cused, "computed", b->computed, "cleared", b->cleared,
                         "bytes", (Py_ssize_t)book_bytes(b));
}

static PyObject *py_bfs_in(PyObject *self, PyObject *args) {
    PyObject *capsule, *sids, *origins, *posobj;
    unsigned long long fixed;
    long long visited, max_states, max_bytes = -1;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOKOLLd|L", &capsule, &sids, &origins, &fixed, &posobj,
                          &visited, &max_states, &seconds, &max_bytes))
        return NULL;
    Walk *w = walk_new_in(capsule, sids, origins, fixed, posobj);
    if (!w) return NULL;
    PyObject *result = walk_step(w, visited, max_states, seconds, max_bytes);
    walk_free(w);
    return result;
}

static PyObject *py_walk_in(PyObject *self, PyObject *args) {
    PyObject *capsule, *sids, *origins, *posobj;
    unsigned long long fixed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOKO", &capsule, &sids, &origins, &fixed, &posobj))
        return NULL;
    Walk *w = walk_new_in(capsule, sids, origins, fixed, posobj);
    if (!w) return NULL;
    PyObject *walk = PyCapsule_New(w, "puzzlebox.disassembly.walk", walk_capsule_free);
    if (!walk) walk_free(w);
    return walk;
}

static Walk *walk_of(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "puzzlebox.disassembly.walk");
}

static PyObject *py_walk_next(PyObject *self, PyObject *args) {
    PyObject *capsule;
    long long visited, max_states, max_bytes = -1;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "OLLd|L", &capsule, &visited, &max_states, &seconds,
                          &max_bytes))
        return NULL;
    Walk *w = walk_of(capsule);
    return w ? walk_step(w, visited, max_states, seconds, max_bytes) : NULL;
}

static PyObject *py_walk_positions(PyObject *self, PyObject *capsule) {
    (void)self;
    Walk *w = walk_of(capsule);
    if (!w) return NULL;
    PyObject *list = PyList_New((Py_ssize_t)w->s.count);
    if (!list) return NULL;
    for (size_t k = 0; k < w->s.count; k++) {
        PyObject *t = position_tuple(w->s.pos + (size_t)w->p.P * k, w->p.P);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, t);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"expand", py_expand, METH_VARARGS,
     "expand(voxels, starts, dims, fixed, pos) -> (splits, steps): one position's step"},
    {"bfs", py_bfs, METH_VARARGS,
     "bfs(voxels, starts, dims, fixed, start, visited, max_states, seconds, max_bytes=-1) "
     "-> (status, visited, position, splits, path): breadth first to the first separation"},
    {"walk", py_walk, METH_VARARGS,
     "walk(voxels, starts, dims, fixed, start) -> a walk that walk_next goes on with"},
    {"walk_next", py_walk_next, METH_VARARGS,
     "walk_next(walk, visited, max_states, seconds, max_bytes=-1) -> as bfs: on to the "
     "next position "
     "that holds a separation"},
    {"walk_positions", py_walk_positions, METH_O,
     "walk_positions(walk) -> every position the walk has met"},
    {"book", py_book, METH_VARARGS,
     "book(dims) -> a book of shapes and of the free distances between them, shared by "
     "the searches of one puzzle"},
    {"book_add", py_book_add, METH_VARARGS,
     "book_add(book, voxels) -> (shape, low corner): the shape of these cells, counted "
     "from their low corner; shape -1 when the book is full"},
    {"book_info", py_book_info, METH_O,
     "book_info(book) -> {shapes, pairs, computed, cleared, bytes}"},
    {"bfs_in", py_bfs_in, METH_VARARGS,
     "bfs_in(book, shapes, origins, fixed, start, visited, max_states, seconds, "
     "max_bytes=-1) -> as bfs, the pieces shapes of a book at their low corners"},
    {"walk_in", py_walk_in, METH_VARARGS,
     "walk_in(book, shapes, origins, fixed, start) -> as walk, over shapes of a book"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cdisasm",
    "The disassembly search compiled ahead of time (see _cdisasm.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cdisasm(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_PIECES", MAX_PIECES) < 0 ||
        PyModule_AddIntConstant(m, "FOUND", ST_FOUND) < 0 ||
        PyModule_AddIntConstant(m, "NONE", ST_NONE) < 0 ||
        PyModule_AddIntConstant(m, "STATES", ST_STATES) < 0 ||
        PyModule_AddIntConstant(m, "TIME", ST_TIME) < 0 ||
        PyModule_AddIntConstant(m, "MEMORY", ST_MEMORY) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
