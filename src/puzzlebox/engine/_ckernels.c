/* The search kernels compiled ahead of time: built by `pip install` with the C compiler, so
 * that a search starts without importing numba or compiling anything (issue #23).
 *
 * Each function here is a line-for-line port of a numba kernel and takes the same arguments:
 *   bitboard_search, bitboard_options_left, bitboard_reachable_sizes
 *       <- engine/_bitboard_kernels.py (search, _options_left, _reachable_sizes)
 *   queens_walk_rows, queens_walk_symmetric
 *       <- engine/_queens_numba.py (walk_rows, walk_symmetric)
 *   cover_setup, cover_search
 *       <- engine/_kernels.py (setup, search: the general engine, its probes included)
 * The Python modules that call them (engine/bitboard.py, engine/_queens_kernels.py,
 * engine/cover_kernels.py) take this module when it was built and numba's otherwise; the
 * tests run both.
 *
 * Arrays arrive through the buffer protocol (numpy arrays, C-contiguous, 8-byte integers,
 * `reach` 1 byte; the general engine's tables as numba's: 4-byte, `done` 1 byte); scalars as
 * Python ints. The GIL is released while a kernel runs: a split
 * run searches on threads too. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define PB_HOT __attribute__((target("popcnt,bmi")))
#define PB_X86 1
#else
#define PB_HOT
#define PB_X86 0
#endif

#define POP(x) ((uint64_t)__builtin_popcountll(x))
#define LOW(x) ((uint64_t)__builtin_ctzll(x)) /* x != 0 */

/* -- arguments ------------------------------------------------------------------------ */

typedef struct {
    Py_buffer v[48];
    int n;
} Held;

static void release(Held *h) {
    for (int i = 0; i < h->n; i++) PyBuffer_Release(&h->v[i]);
    h->n = 0;
}

/* The data of array argument ``i``, checked for its item size; NULL with an exception. */
static void *array_arg(PyObject *args, Py_ssize_t i, Py_ssize_t itemsize, int writable,
                       Held *h, Py_ssize_t *len, Py_ssize_t *cols) {
    PyObject *o = PyTuple_GET_ITEM(args, i);
    Py_buffer *v = &h->v[h->n];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, v, flags) < 0) return NULL;
    h->n++;
    if (v->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "kernel argument %zd: items of %zd bytes, not %zd", i,
                     v->itemsize, itemsize);
        return NULL;
    }
    if (len) *len = v->len / itemsize;
    if (cols) *cols = v->ndim >= 2 ? v->shape[1] : 1;
    return v->buf;
}

static int int_arg(PyObject *args, Py_ssize_t i, int64_t *out) {
    PyObject *o = PyTuple_GET_ITEM(args, i);
    long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int64_t)x;
    return 0;
}

#define ARR(T, i, w, len, cols)                                                   \
    ((T *)array_arg(args, (i), (Py_ssize_t)sizeof(T), (w), &held, (len), (cols)))

/* SplitMix64's finaliser: a well-spread uint64 from any uint64 (both engines' probes). */
static inline uint64_t cv_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* -- the bitboard engine ---------------------------------------------------------------- */

enum { R_DEPTH = 0, R_ENTER, R_NODES, R_SOLUTIONS, R_PRUNED, R_WRITTEN, R_RNG };
enum { M_COUNT = 0, M_SOLUTIONS = 1, M_FRONTIER = 2, M_PROBE = 3 };
#define BB_GOLDEN UINT64_C(0x9E3779B97F4A7C15)
enum { S_DONE = 0, S_RECORDS = 1, S_BUDGET = 2, S_FULL = 3 };
#define PRUNE_REGIONS 1

static void reachable_sizes(int64_t limit, const int64_t *gcount, Py_ssize_t G,
                            const int64_t *ghi, const int64_t *gastart, const int64_t *gareas,
                            const int64_t *fareas, Py_ssize_t F, uint8_t *reach) {
    for (int64_t s = 0; s <= limit; s++) reach[s] = 0;
    reach[0] = 1;
    for (Py_ssize_t g = 0; g < G; g++) {
        int64_t room = ghi[g] - gcount[g];
        int64_t a0 = gastart[g], a1 = gastart[g + 1];
        if (a1 == a0 || room <= 0) continue;
        int64_t most = limit / gareas[a0];
        if (most < room) room = most;
        for (int64_t r = 0; r < room; r++)
            for (int64_t s = limit; s >= 0; s--)
                if (reach[s])
                    for (int64_t k = a0; k < a1; k++) {
                        int64_t t = s + gareas[k];
                        if (t <= limit) reach[t] = 1;
                    }
    }
    for (int64_t s = 0; s <= limit; s++)
        if (reach[s])
            for (Py_ssize_t k = 0; k < F; k++) {
                int64_t t = s + fareas[k];
                if (t <= limit) reach[t] = 1;
            }
}

static inline int64_t write_path(int64_t mode, int64_t c, const int64_t *topt,
                                 const int64_t *fsel, const int64_t *fitem, int64_t *out,
                                 int64_t w) {
    if (mode == M_FRONTIER) {
        out[w] = 2 * c;
        for (int64_t f = 0; f < c; f++) {
            out[w + 1 + 2 * f] = topt[fsel[f]];
            out[w + 2 + 2 * f] = fitem[f];
        }
        return w + 2 * c + 1;
    }
    out[w] = c;
    for (int64_t f = 0; f < c; f++) out[w + 1 + f] = topt[fsel[f]];
    return w + c + 1;
}

/* The end of a probe whose path placed ``c`` options: its record (the options each frame's
 * item had, then 1 when the leaf is a solution, else 0), the counters of the options on the
 * path given back and their frames cleared, so that the next probe starts at the root. */
static inline int64_t probe_end(int64_t c, int64_t solved, const int64_t *fopts, int64_t *fsel,
                                const int64_t *tgs, const int64_t *tgl, int64_t *gcount,
                                int64_t *out, int64_t w) {
    out[w] = c + 1;
    for (int64_t f = 0; f < c; f++) {
        int64_t s = fsel[f];
        out[w + 1 + f] = fopts[f];
        for (int64_t q = tgs[s]; q < tgs[s + 1]; q++) gcount[tgl[q]] -= 1;
        fsel[f] = -1;
    }
    out[w + 1 + c] = solved;
    return w + c + 2;
}

/* The options left among an item's run of ``span`` words (``a`` the available bits there,
 * ``b`` the item's), counted until the count reaches ``enough`` (it may pass it by up to
 * three words' worth) or the run ends. The run is read from its end: options are numbered
 * by their first cell in fill order, and the search fills cells roughly in that order, so
 * the options still available cluster in the run's last words and a count that can stop
 * early stops after a few words. Four words at a time: a test after each word costs more
 * than it saves. */
PB_HOT static inline __attribute__((always_inline)) uint64_t
count_upto(const uint64_t *restrict a, const uint64_t *restrict b, int64_t span,
           uint64_t enough) {
    uint64_t cnt = 0;
    int64_t k = span;
    for (; k >= 4 && cnt < enough; k -= 4)
        cnt += POP(a[k - 1] & b[k - 1]) + POP(a[k - 2] & b[k - 2]) + POP(a[k - 3] & b[k - 3]) +
               POP(a[k - 4] & b[k - 4]);
    if (cnt < enough)
        for (; k > 0; k--) cnt += POP(a[k - 1] & b[k - 1]);
    return cnt;
}

typedef struct {
    int64_t m;
    const int64_t *rank, *topt, *tgs, *tgl, *tarea, *ecstart, *ecells;
    const uint64_t *emask, *conflicts;
    const int64_t *clo, *chi, *cofs;
    const uint64_t *cw;
    const int64_t *adjs, *adjv, *glo, *ghi;
    int64_t prune, prune_from, uniform, free_copies;
    const int64_t *gastart, *gareas, *fareas;
    Py_ssize_t F;
    uint64_t *avail, *board;
    int64_t *fempty, *fitem, *fsel, *fopts, *gcount, *regs;
    uint64_t *vis, *queue, *lab, *par;
    int64_t *csize, *pend;
    uint8_t *reach;
    int64_t mode, depth_limit, max_records, max_nodes;
    int64_t *out;
    Py_ssize_t W, NW, G, out_cap, n_conflicts;
} Bitboard;

PB_HOT static inline __attribute__((always_inline)) int64_t
bitboard_run(Bitboard *a, const int64_t mode) {
    /* Everything in locals, the arrays as restrict pointers: no array aliases another, and
     * the compiler need not reload a field after each store. */
    const Py_ssize_t W = a->W, NW = a->NW, G = a->G;
    const int64_t m = a->m, out_cap = a->out_cap;
    const int64_t prune = a->prune, prune_from = a->prune_from, uniform = a->uniform;
    const int64_t free_copies = a->free_copies, depth_limit = a->depth_limit;
    const int64_t max_records = a->max_records;
    const int has_conflicts = a->n_conflicts > 0;
    int multi = 0; /* some counter must be covered more than once */
    for (Py_ssize_t g = 0; g < G; g++) multi |= a->glo[g] > 1;
    const int64_t *restrict clo = a->clo, *restrict chi = a->chi, *restrict cofs = a->cofs,
                           *restrict glo = a->glo, *restrict ghi = a->ghi,
                           *restrict tgs = a->tgs, *restrict tgl = a->tgl,
                           *restrict adjs = a->adjs, *restrict adjv = a->adjv,
                           *restrict gastart = a->gastart, *restrict rank = a->rank,
                           *restrict topt = a->topt, *restrict ecstart = a->ecstart,
                           *restrict ecells = a->ecells, *restrict tarea = a->tarea;
    const uint64_t *restrict cw = a->cw, *restrict conflicts = a->conflicts,
                            *restrict emask = a->emask;
    uint64_t *restrict avail = a->avail, *restrict board = a->board, *restrict vis = a->vis,
             *restrict queue = a->queue, *restrict lab = a->lab, *restrict par = a->par;
    int64_t *restrict fempty = a->fempty, *restrict fitem = a->fitem, *restrict fsel = a->fsel,
            *restrict fopts = a->fopts, *restrict gcount = a->gcount, *restrict regs = a->regs,
            *restrict csize = a->csize, *restrict pend = a->pend, *restrict out = a->out;
    uint8_t *restrict reach = a->reach;
    int64_t d = regs[R_DEPTH], enter = regs[R_ENTER], nodes = regs[R_NODES];
    int64_t solutions = regs[R_SOLUTIONS], pruned = regs[R_PRUNED];
    uint64_t rng = (uint64_t)regs[R_RNG];
    int64_t node_stop = nodes + a->max_nodes;
    int64_t w_out = 0, records = 0, status = S_DONE;
    int64_t ended = -1, solved = 0; /* M_PROBE: the options placed by a probe just ended */
    const int64_t BIG = (int64_t)1 << 62;

    while (d >= 0) {
        if (mode == M_PROBE && ended >= 0) { /* its record, then the root again */
            w_out = probe_end(ended, solved, fopts, fsel, tgs, tgl, gcount, out, w_out);
            ended = -1;
            d = 0;
            enter = 1;
            if (++records >= max_records) {
                status = S_RECORDS;
                break;
            }
        }
        if (mode != M_COUNT && w_out + 2 * d + 5 > out_cap) {
            status = S_FULL;
            break;
        }
        if (enter) {
            enter = 0;
            const uint64_t *av = avail + d * NW;
            int64_t best = BIG, bi = -1, bopts = 0;
            for (Py_ssize_t w = 0; w < W; w++) {
                uint64_t free = ~board[d * W + w];
                while (free && best > 0) {
                    int64_t x = (int64_t)w * 64 + (int64_t)LOW(free);
                    if (x >= m) break;
                    free &= free - 1;
                    /* count no further than the cell can win: a tie wins only when listing
                     * solutions (by rank) */
                    uint64_t cnt = count_upto(av + clo[x], cw + cofs[x], chi[x] - clo[x],
                                              (uint64_t)(mode == M_SOLUTIONS ? best + 1 : best));
                    int tie = (int64_t)cnt == best && mode == M_SOLUTIONS &&
                              rank[x] < rank[bi];
                    if ((int64_t)cnt < best || tie) {
                        best = (int64_t)cnt;
                        bi = x;
                        bopts = best;
                    }
                }
            }
            /* a counter competes only with a need above 1, or of 1 against a best above 1 */
            for (Py_ssize_t g = 0; g < (best > 1 || multi ? G : 0); g++) {
                int64_t need = glo[g] - gcount[g];
                if (need > 1 || (need == 1 && best > 1)) {
                    int64_t x = m + g;
                    /* no further than the counter can win: count - need + 1 below best */
                    uint64_t cnt = count_upto(av + clo[x], cw + cofs[x], chi[x] - clo[x],
                                              (uint64_t)(best + need - 1));
                    int64_t branches = (int64_t)cnt - need + 1;
                    if (branches < 0) branches = 0;
                    if (branches < best) {
                        best = branches;
                        bi = x;
                        bopts = (int64_t)cnt;
                        if (best == 0) break;
                    }
                }
            }
            if (best == 0) {
                if (mode == M_PROBE) { /* a dead end: the probe ends here */
                    ended = d;
                    solved = 0;
                    continue;
                }
                d -= 1;
                continue;
            }
            fitem[d] = bi;
            fopts[d] = bopts;
            fsel[d] = -1;
        }
        int64_t s = fsel[d];
        if (s >= 0) {
            for (int64_t q = tgs[s]; q < tgs[s + 1]; q++) gcount[tgl[q]] -= 1;
            fsel[d] = -1;
        }
        int64_t i = fitem[d];
        uint64_t *av = avail + d * NW;
        int64_t lo = clo[i], ofs = cofs[i], span = chi[i] - lo;
        int64_t e = -1, first = BIG;
        if (mode == M_PROBE) { /* one of the item's options, uniformly at random */
            rng += BB_GOLDEN;
            uint64_t pick = ((cv_mix(rng) >> 32) * (uint64_t)fopts[d]) >> 32;
            for (int64_t k = 0; k < span && e < 0; k++) {
                uint64_t bits = av[lo + k] & cw[ofs + k];
                uint64_t n = POP(bits);
                if (pick >= n) {
                    pick -= n;
                    continue;
                }
                for (; pick > 0; pick--) bits &= bits - 1;
                e = (lo + k) * 64 + (int64_t)LOW(bits);
            }
        } else {
            /* options are tried in ascending order except when listing solutions: the next
             * one lies at or after the word of the one just tried (s), whose bit is cleared */
            for (int64_t k = mode != M_SOLUTIONS && s >= 0 ? (s >> 6) - lo : 0; k < span; k++) {
                uint64_t bits = av[lo + k] & cw[ofs + k];
                while (bits) {
                    int64_t cand = (lo + k) * 64 + (int64_t)LOW(bits);
                    bits &= bits - 1;
                    if (mode != M_SOLUTIONS) {
                        e = cand;
                        break;
                    }
                    if (topt[cand] < first) {
                        first = topt[cand];
                        e = cand;
                    }
                }
                if (e >= 0 && mode != M_SOLUTIONS) break;
            }
        }
        if (e < 0) {
            d -= 1;
            continue;
        }
        if (mode != M_PROBE) /* a probe takes one branch: its frame is the root's next time */
            av[e >> 6] &= ~((uint64_t)1 << (e & 63));
        fsel[d] = e;
        nodes += 1;
        int64_t c = d + 1;
        uint64_t *cv = avail + c * NW;
        if (has_conflicts) {
            const uint64_t *row = conflicts + e * NW;
            for (Py_ssize_t k = 0; k < NW; k++) cv[k] = av[k] & ~row[k];
        } else {
            for (Py_ssize_t k = 0; k < NW; k++) cv[k] = av[k];
            for (int64_t t = ecstart[e]; t < ecstart[e + 1]; t++) {
                int64_t x = ecells[t];
                int64_t xlo = clo[x], xofs = cofs[x], xspan = chi[x] - xlo;
                for (int64_t k = 0; k < xspan; k++) cv[xlo + k] &= ~cw[xofs + k];
            }
        }
        for (int64_t q = tgs[e]; q < tgs[e + 1]; q++) {
            int64_t g = tgl[q];
            gcount[g] += 1;
            if (gcount[g] >= ghi[g] && (ghi[g] > 1 || !has_conflicts)) {
                int64_t x = m + g;
                int64_t xlo = clo[x], xofs = cofs[x], xspan = chi[x] - xlo;
                for (int64_t k = 0; k < xspan; k++) cv[xlo + k] &= ~cw[xofs + k];
            }
        }
        for (Py_ssize_t w = 0; w < W; w++)
            board[c * W + w] = board[d * W + w] | emask[e * W + w];
        fempty[c] = fempty[d] - tarea[e];
        if (fempty[c] == 0) {
            int complete = 1;
            for (Py_ssize_t h = 0; h < G; h++)
                if (gcount[h] < glo[h]) {
                    complete = 0;
                    break;
                }
            if (complete) {
                solutions += 1;
                if (mode != M_COUNT && mode != M_PROBE) { /* a solution is a record */
                    w_out = write_path(mode, c, topt, fsel, fitem, out, w_out);
                    records += 1;
                    if (records >= max_records) {
                        status = S_RECORDS;
                        break;
                    }
                }
            }
            if (mode == M_PROBE) { /* a leaf: the probe ends here */
                ended = c;
                solved = complete;
            }
            continue;
        }
        if ((prune & PRUNE_REGIONS) && fempty[c] >= prune_from) {
            int64_t copies = free_copies;
            if (uniform > 0 && copies < 0) {
                copies = 0;
                for (Py_ssize_t h = 0; h < G; h++)
                    if (gastart[h + 1] > gastart[h]) copies += ghi[h] - gcount[h];
            }
            const uint64_t *cb = board + c * W;
            for (Py_ssize_t w = 0; w < W; w++) vis[w] = cb[w];
            uint64_t tail = 0;
            for (int64_t t = ecstart[e]; t < ecstart[e + 1]; t++) {
                uint64_t x = (uint64_t)ecells[t];
                for (int64_t q = adjs[x]; q < adjs[x + 1]; q++) {
                    uint64_t y = (uint64_t)adjv[q];
                    uint64_t bit = (uint64_t)1 << (y & 63);
                    if (!(vis[y >> 6] & bit)) {
                        vis[y >> 6] |= bit;
                        lab[y] = tail;
                        par[tail] = tail;
                        csize[tail] = 1;
                        pend[tail] = 1;
                        queue[tail] = y;
                        tail += 1;
                    }
                }
            }
            int64_t growing = (int64_t)tail;
            uint64_t head = 0;
            int reach_ready = 0, dead = 0;
            while (head < tail && growing > 1 && !dead) {
                uint64_t z = queue[head];
                head += 1;
                uint64_t r = lab[z];
                while (par[r] != r) r = par[r];
                pend[r] -= 1;
                for (int64_t b = adjs[z]; b < adjs[z + 1]; b++) {
                    uint64_t u = (uint64_t)adjv[b];
                    uint64_t bit = (uint64_t)1 << (u & 63);
                    if (!(vis[u >> 6] & bit)) {
                        vis[u >> 6] |= bit;
                        lab[u] = r;
                        csize[r] += 1;
                        pend[r] += 1;
                        queue[tail] = u;
                        tail += 1;
                    } else if (!(cb[u >> 6] & bit)) {
                        uint64_t q = lab[u];
                        while (par[q] != q) q = par[q];
                        if (q != r) {
                            par[q] = r;
                            csize[r] += csize[q];
                            pend[r] += pend[q];
                            growing -= 1;
                        }
                    }
                }
                if (pend[r] == 0) {
                    growing -= 1;
                    int64_t area = csize[r];
                    if (uniform > 0) {
                        dead = area % uniform != 0 || area / uniform > copies;
                    } else {
                        if (!reach_ready) {
                            reachable_sizes(fempty[c], gcount, G, ghi, gastart, a->gareas,
                                            a->fareas, a->F, reach);
                            reach_ready = 1;
                        }
                        dead = reach[area] == 0;
                    }
                }
            }
            if (dead) {
                pruned += 1;
                if (mode == M_PROBE) { /* a region no option can fill: the probe ends */
                    ended = c;
                    solved = 0;
                }
                continue;
            }
        }
        if (mode == M_FRONTIER && c >= depth_limit) {
            w_out = write_path(mode, c, topt, fsel, fitem, out, w_out);
            records += 1;
            continue;
        }
        d = c;
        enter = 1;
        if (nodes >= node_stop) {
            status = S_BUDGET;
            break;
        }
    }
    regs[R_DEPTH] = d;
    regs[R_ENTER] = enter;
    regs[R_NODES] = nodes;
    regs[R_SOLUTIONS] = solutions;
    regs[R_PRUNED] = pruned;
    regs[R_WRITTEN] = w_out;
    regs[R_RNG] = (int64_t)rng;
    return status;
}

/* One copy of the search per mode, each with its mode a constant, so that the compiler drops
 * the other modes' tests from the loop (a count checks no tie and writes no path). */
PB_HOT static int64_t bitboard_count(Bitboard *a) { return bitboard_run(a, M_COUNT); }
PB_HOT static int64_t bitboard_solutions(Bitboard *a) { return bitboard_run(a, M_SOLUTIONS); }
PB_HOT static int64_t bitboard_frontier(Bitboard *a) { return bitboard_run(a, M_FRONTIER); }
PB_HOT static int64_t bitboard_probe(Bitboard *a) { return bitboard_run(a, M_PROBE); }

static PyObject *py_bitboard_search(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 45) {
        PyErr_SetString(PyExc_TypeError, "bitboard_search takes 45 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    Bitboard a;
    Py_ssize_t n, rows_len;
    int64_t status = -1;
    if (int_arg(args, 0, &a.m) < 0) goto fail;
    if (!(a.rank = ARR(int64_t, 1, 0, NULL, NULL))) goto fail;
    if (!(a.topt = ARR(int64_t, 2, 0, NULL, NULL))) goto fail;
    if (!(a.tgs = ARR(int64_t, 3, 0, NULL, NULL))) goto fail;
    if (!(a.tgl = ARR(int64_t, 4, 0, NULL, NULL))) goto fail;
    if (!(a.tarea = ARR(int64_t, 5, 0, NULL, NULL))) goto fail;
    if (!(a.ecstart = ARR(int64_t, 6, 0, NULL, NULL))) goto fail;
    if (!(a.ecells = ARR(int64_t, 7, 0, NULL, NULL))) goto fail;
    if (!(a.emask = ARR(uint64_t, 8, 0, NULL, NULL))) goto fail;
    if (!(a.conflicts = ARR(uint64_t, 9, 0, &rows_len, NULL))) goto fail;
    if (!(a.clo = ARR(int64_t, 10, 0, NULL, NULL))) goto fail;
    if (!(a.chi = ARR(int64_t, 11, 0, NULL, NULL))) goto fail;
    if (!(a.cofs = ARR(int64_t, 12, 0, NULL, NULL))) goto fail;
    if (!(a.cw = ARR(uint64_t, 13, 0, NULL, NULL))) goto fail;
    if (!(a.adjs = ARR(int64_t, 14, 0, NULL, NULL))) goto fail;
    if (!(a.adjv = ARR(int64_t, 15, 0, NULL, NULL))) goto fail;
    if (!(a.glo = ARR(int64_t, 16, 0, NULL, NULL))) goto fail;
    if (!(a.ghi = ARR(int64_t, 17, 0, NULL, NULL))) goto fail;
    if (int_arg(args, 18, &a.prune) < 0) goto fail;
    if (int_arg(args, 19, &a.prune_from) < 0) goto fail;
    if (int_arg(args, 20, &a.uniform) < 0) goto fail;
    if (int_arg(args, 21, &a.free_copies) < 0) goto fail;
    if (!(a.gastart = ARR(int64_t, 22, 0, NULL, NULL))) goto fail;
    if (!(a.gareas = ARR(int64_t, 23, 0, NULL, NULL))) goto fail;
    if (!(a.fareas = ARR(int64_t, 24, 0, &a.F, NULL))) goto fail;
    if (!(a.avail = ARR(uint64_t, 25, 1, NULL, &a.NW))) goto fail;
    if (!(a.board = ARR(uint64_t, 26, 1, NULL, &a.W))) goto fail;
    if (!(a.fempty = ARR(int64_t, 27, 1, NULL, NULL))) goto fail;
    if (!(a.fitem = ARR(int64_t, 28, 1, NULL, NULL))) goto fail;
    if (!(a.fsel = ARR(int64_t, 29, 1, NULL, NULL))) goto fail;
    if (!(a.fopts = ARR(int64_t, 30, 1, NULL, NULL))) goto fail;
    if (!(a.gcount = ARR(int64_t, 31, 1, &a.G, NULL))) goto fail;
    if (!(a.regs = ARR(int64_t, 32, 1, &n, NULL))) goto fail;
    if (!(a.vis = ARR(uint64_t, 33, 1, NULL, NULL))) goto fail;
    if (!(a.queue = ARR(uint64_t, 34, 1, NULL, NULL))) goto fail;
    if (!(a.lab = ARR(uint64_t, 35, 1, NULL, NULL))) goto fail;
    if (!(a.par = ARR(uint64_t, 36, 1, NULL, NULL))) goto fail;
    if (!(a.csize = ARR(int64_t, 37, 1, NULL, NULL))) goto fail;
    if (!(a.pend = ARR(int64_t, 38, 1, NULL, NULL))) goto fail;
    if (!(a.reach = ARR(uint8_t, 39, 1, NULL, NULL))) goto fail;
    if (int_arg(args, 40, &a.mode) < 0) goto fail;
    if (int_arg(args, 41, &a.depth_limit) < 0) goto fail;
    if (int_arg(args, 42, &a.max_records) < 0) goto fail;
    if (int_arg(args, 43, &a.max_nodes) < 0) goto fail;
    if (!(a.out = ARR(int64_t, 44, 1, &a.out_cap, NULL))) goto fail;
    if (n <= R_RNG) {
        PyErr_SetString(PyExc_ValueError, "bitboard_search: regs too short");
        goto fail;
    }
    a.n_conflicts = a.NW > 0 ? rows_len / a.NW : 0;
    Py_BEGIN_ALLOW_THREADS
    status = a.mode == M_COUNT       ? bitboard_count(&a)
             : a.mode == M_SOLUTIONS ? bitboard_solutions(&a)
             : a.mode == M_PROBE     ? bitboard_probe(&a)
                                     : bitboard_frontier(&a);
    Py_END_ALLOW_THREADS
    release(&held);
    return PyLong_FromLongLong(status);
fail:
    release(&held);
    return NULL;
}

PB_HOT static void options_left(int64_t top, const int64_t *fitem, const uint64_t *avail,
                                Py_ssize_t NW, const int64_t *clo, const int64_t *chi,
                                const int64_t *cofs, const uint64_t *cw, int64_t *left) {
    for (int64_t f = 0; f < top + 1; f++) {
        int64_t i = fitem[f];
        int64_t lo = clo[i], ofs = cofs[i], span = chi[i] - lo;
        int64_t n = 0;
        for (int64_t k = 0; k < span; k++) n += (int64_t)POP(avail[f * NW + lo + k] & cw[ofs + k]);
        left[f] = n;
    }
}

static PyObject *py_bitboard_options_left(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 8) {
        PyErr_SetString(PyExc_TypeError, "bitboard_options_left takes 8 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    int64_t top;
    Py_ssize_t NW;
    const int64_t *fitem, *clo, *chi, *cofs;
    const uint64_t *avail, *cw;
    int64_t *left;
    if (int_arg(args, 0, &top) < 0) goto fail;
    if (!(fitem = ARR(int64_t, 1, 0, NULL, NULL))) goto fail;
    if (!(avail = ARR(uint64_t, 2, 0, NULL, &NW))) goto fail;
    if (!(clo = ARR(int64_t, 3, 0, NULL, NULL))) goto fail;
    if (!(chi = ARR(int64_t, 4, 0, NULL, NULL))) goto fail;
    if (!(cofs = ARR(int64_t, 5, 0, NULL, NULL))) goto fail;
    if (!(cw = ARR(uint64_t, 6, 0, NULL, NULL))) goto fail;
    if (!(left = ARR(int64_t, 7, 1, NULL, NULL))) goto fail;
    options_left(top, fitem, avail, NW, clo, chi, cofs, cw, left);
    release(&held);
    Py_RETURN_NONE;
fail:
    release(&held);
    return NULL;
}

static PyObject *py_bitboard_reachable_sizes(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 7) {
        PyErr_SetString(PyExc_TypeError, "bitboard_reachable_sizes takes 7 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    int64_t limit;
    Py_ssize_t G, F, R;
    const int64_t *gcount, *ghi, *gastart, *gareas, *fareas;
    uint8_t *reach;
    if (int_arg(args, 0, &limit) < 0) goto fail;
    if (!(gcount = ARR(int64_t, 1, 0, &G, NULL))) goto fail;
    if (!(ghi = ARR(int64_t, 2, 0, NULL, NULL))) goto fail;
    if (!(gastart = ARR(int64_t, 3, 0, NULL, NULL))) goto fail;
    if (!(gareas = ARR(int64_t, 4, 0, NULL, NULL))) goto fail;
    if (!(fareas = ARR(int64_t, 5, 0, &F, NULL))) goto fail;
    if (!(reach = ARR(uint8_t, 6, 1, &R, NULL))) goto fail;
    if (limit < 0 || limit >= R) {
        PyErr_SetString(PyExc_ValueError, "bitboard_reachable_sizes: limit outside reach");
        goto fail;
    }
    reachable_sizes(limit, gcount, G, ghi, gastart, gareas, fareas, F, reach);
    release(&held);
    Py_RETURN_NONE;
fail:
    release(&held);
    return NULL;
}

/* -- the n-queens bitmask engine ---------------------------------------------------------- */

typedef struct {
    int64_t n, row0, last, bit;
    const int64_t *prefix, *cols;
} Leaf;

static inline int64_t q_column(int64_t bit) { return (int64_t)LOW((uint64_t)bit); }

static int64_t q_row_of(const Leaf *L, int64_t c) {
    int64_t mk = (int64_t)1 << c;
    if (L->cols[0] & mk) {
        for (int64_t r = 0; r < L->row0; r++)
            if (L->prefix[r] == c) return r;
    }
    if (!(L->cols[L->last] & mk)) return L->n - 1;
    int64_t lo = 1, hi = L->last;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (L->cols[mid] & mk)
            hi = mid;
        else
            lo = mid + 1;
    }
    return L->row0 + lo - 1;
}

static int64_t q_col_at(const Leaf *L, int64_t k) {
    if (k < L->row0) return L->prefix[k];
    if (k == L->n - 1) return q_column(L->bit);
    int64_t d = k - L->row0;
    return q_column(L->cols[d + 1] ^ L->cols[d]);
}

static int64_t q_image_at(const Leaf *L, int64_t g, int64_t k) {
    int64_t top = L->n - 1;
    switch (g) {
    case 1: return top - q_col_at(L, k);
    case 2: return q_col_at(L, top - k);
    case 3: return top - q_col_at(L, top - k);
    case 4: return q_row_of(L, k);
    case 5: return top - q_row_of(L, top - k);
    case 6: return top - q_row_of(L, k);
    default: return q_row_of(L, top - k);
    }
}

/* Whether the leaf's solution is the smallest of its images under the symmetries in
 * ``group`` (bit g for image g, 1..7; bit 0, the identity, is never compared, and makes the
 * mask nonzero, walk_rows' sign to count leaders at all): with all eight bits, the square's
 * eight maps; a board whose holes keep fewer of them (#38) names those it keeps. An
 * image's first column is the distance of a border queen from a corner, so the four border
 * queens decide almost every leaf; ties compare whole images. */
static int q_leads(const Leaf *L, int64_t group) {
    int64_t top = L->n - 1;
    int64_t s0 = q_col_at(L, 0);
    int64_t least = INT64_MAX;
#define Q_FIRST(g, value)                                                                   \
    if (group & (1 << (g))) {                                                              \
        int64_t v_ = (value);                                                              \
        if (v_ < s0) return 0;                                                             \
        if (v_ < least) least = v_;                                                        \
    }
    Q_FIRST(1, top - s0)
    if (group & 0x0C) {
        int64_t sl = q_column(L->bit);
        Q_FIRST(2, sl)
        Q_FIRST(3, top - sl)
    }
    if (group & 0x50) {
        int64_t i0 = q_row_of(L, 0);
        Q_FIRST(4, i0)
        Q_FIRST(6, top - i0)
    }
    if (group & 0xA0) {
        int64_t il = q_row_of(L, top);
        Q_FIRST(7, il)
        Q_FIRST(5, top - il)
    }
#undef Q_FIRST
    if (s0 < least) return 1;
    for (int64_t g = 1; g < 8; g++) {
        if (!(group & (1 << g))) continue;
        for (int64_t k = 0; k < L->n; k++) {
            int64_t x = q_col_at(L, k), y = q_image_at(L, g, k);
            if (x < y) break;
            if (x > y) return 0;
        }
    }
    return 1;
}

PB_HOT static void walk_rows(int64_t n, const int64_t *allowed, int64_t row0,
                             const int64_t *prefix, int64_t *cols, int64_t *left,
                             int64_t *right, int64_t *free, int64_t *top, int64_t budget,
                             int64_t lead, int64_t out[3]) {
    int64_t full = (int64_t)(((uint64_t)1 << n) - 1);
    int64_t last = n - 1 - row0;
    const int64_t *below = allowed + row0;
    int64_t d = top[0], count = 0, nodes = 0, leaders = 0;
    Leaf L = {n, row0, last, 0, prefix, cols};
    while (d >= 0 && nodes < budget) {
        int64_t f = free[d];
        if (f == 0) {
            d -= 1;
            continue;
        }
        int64_t bit = f & -f;
        free[d] = f ^ bit;
        nodes += 1;
        if (d == last) {
            count += 1;
            if (lead) {
                L.bit = bit;
                if (q_leads(&L, lead)) leaders += 1;
            }
            continue;
        }
        int64_t nc = cols[d] | bit;
        int64_t nl = (int64_t)(((uint64_t)(left[d] | bit) << 1) & (uint64_t)full);
        int64_t nr = (right[d] | bit) >> 1;
        d += 1;
        cols[d] = nc;
        left[d] = nl;
        right[d] = nr;
        free[d] = below[d] & ~(nc | nl | nr);
    }
    top[0] = d;
    out[0] = count;
    out[1] = nodes;
    out[2] = leaders;
}

static PyObject *py_queens_walk_rows(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 11) {
        PyErr_SetString(PyExc_TypeError, "queens_walk_rows takes 11 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    int64_t n, row0, budget, out[3];
    Py_ssize_t n_allowed, n_cols;
    const int64_t *allowed, *prefix;
    int64_t *cols, *left, *right, *free, *top;
    if (int_arg(args, 0, &n) < 0) goto fail;
    if (!(allowed = ARR(int64_t, 1, 0, &n_allowed, NULL))) goto fail;
    if (int_arg(args, 2, &row0) < 0) goto fail;
    if (!(prefix = ARR(int64_t, 3, 0, NULL, NULL))) goto fail;
    if (!(cols = ARR(int64_t, 4, 1, &n_cols, NULL))) goto fail;
    if (!(left = ARR(int64_t, 5, 1, NULL, NULL))) goto fail;
    if (!(right = ARR(int64_t, 6, 1, NULL, NULL))) goto fail;
    if (!(free = ARR(int64_t, 7, 1, NULL, NULL))) goto fail;
    if (!(top = ARR(int64_t, 8, 1, NULL, NULL))) goto fail;
    if (int_arg(args, 9, &budget) < 0) goto fail;
    int64_t lead;
    if (int_arg(args, 10, &lead) < 0) goto fail;
    if (n < 1 || n > 62 || n_allowed < n || row0 < 0 || row0 >= n || n_cols < n - row0) {
        PyErr_SetString(PyExc_ValueError, "queens_walk_rows: arrays do not fit n");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    walk_rows(n, allowed, row0, prefix, cols, left, right, free, top, budget, lead, out);
    Py_END_ALLOW_THREADS
    release(&held);
    return Py_BuildValue("(LLL)", (long long)out[0], (long long)out[1], (long long)out[2]);
fail:
    release(&held);
    return NULL;
}

static void walk_symmetric(int64_t n, int64_t turns, const int64_t *allowed, int64_t *row,
                           int64_t *col, int64_t *rows, int64_t *cols, int64_t *diag,
                           int64_t *anti, int64_t *top, int64_t budget, int64_t out[2]) {
    int64_t images = 4 / turns;
    int64_t d = top[0], count = 0, nodes = 0;
    while (d >= 0 && nodes < budget) {
        int64_t r = row[d];
        if (r == n) {
            count += 1;
            d -= 1;
            continue;
        }
        int64_t c = col[d];
        if (c == n) {
            d -= 1;
            continue;
        }
        col[d] = c + 1;
        nodes += 1;
        int64_t nrows = rows[d], ncols = cols[d], ndiag = diag[d], nanti = anti[d];
        int ok = 1;
        int64_t qr = r, qc = c;
        for (int64_t k = 0; k < images; k++) {
            if (k > 0) {
                int64_t pr = qr;
                if (turns == 1) {
                    qr = qc;
                    qc = n - 1 - pr;
                } else {
                    qr = n - 1 - pr;
                    qc = n - 1 - qc;
                }
                if (qr == r && qc == c) break;
            }
            int64_t d1 = qr + qc, d2 = qr - qc + n - 1;
            if (!((allowed[qr] >> qc) & 1) || ((nrows >> qr) & 1) || ((ncols >> qc) & 1) ||
                ((ndiag >> d1) & 1) || ((nanti >> d2) & 1)) {
                ok = 0;
                break;
            }
            nrows |= (int64_t)1 << qr;
            ncols |= (int64_t)1 << qc;
            ndiag |= (int64_t)1 << d1;
            nanti |= (int64_t)1 << d2;
        }
        if (ok) {
            int64_t nxt = r + 1;
            while (nxt < n && ((nrows >> nxt) & 1)) nxt += 1;
            d += 1;
            row[d] = nxt;
            col[d] = 0;
            rows[d] = nrows;
            cols[d] = ncols;
            diag[d] = ndiag;
            anti[d] = nanti;
        }
    }
    top[0] = d;
    out[0] = count;
    out[1] = nodes;
}

static PyObject *py_queens_walk_symmetric(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 11) {
        PyErr_SetString(PyExc_TypeError, "queens_walk_symmetric takes 11 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    int64_t n, turns, budget, out[2];
    Py_ssize_t n_allowed;
    const int64_t *allowed;
    int64_t *row, *col, *rows, *cols, *diag, *anti, *top;
    if (int_arg(args, 0, &n) < 0) goto fail;
    if (int_arg(args, 1, &turns) < 0) goto fail;
    if (!(allowed = ARR(int64_t, 2, 0, &n_allowed, NULL))) goto fail;
    if (!(row = ARR(int64_t, 3, 1, NULL, NULL))) goto fail;
    if (!(col = ARR(int64_t, 4, 1, NULL, NULL))) goto fail;
    if (!(rows = ARR(int64_t, 5, 1, NULL, NULL))) goto fail;
    if (!(cols = ARR(int64_t, 6, 1, NULL, NULL))) goto fail;
    if (!(diag = ARR(int64_t, 7, 1, NULL, NULL))) goto fail;
    if (!(anti = ARR(int64_t, 8, 1, NULL, NULL))) goto fail;
    if (!(top = ARR(int64_t, 9, 1, NULL, NULL))) goto fail;
    if (int_arg(args, 10, &budget) < 0) goto fail;
    if (n < 1 || n > 31 || n_allowed < n || (turns != 1 && turns != 2)) {
        PyErr_SetString(PyExc_ValueError, "queens_walk_symmetric: arguments do not fit");
        goto fail;
    }
    walk_symmetric(n, turns, allowed, row, col, rows, cols, diag, anti, top, budget, out);
    release(&held);
    return Py_BuildValue("(LL)", (long long)out[0], (long long)out[1]);
fail:
    release(&held);
    return NULL;
}

/* Toroidal n-queens (#38): walk_rows on a board whose diagonals wrap, so the masks of the
 * two diagonals rotate by one column a row instead of shifting. No leaders: a torus is
 * counted whole (its distinct count is Burnside's, queens_fixed below). With ``images`` 1,
 * a leaf counts the shifts of its solution along the rows (column c to c + b mod n, for
 * each b) whose queens all stand on ``board``'s squares; with 2, those of its mirror image
 * (c to -c) too; with 0 it counts 1. The engine walks the whole torus's tree with a queen
 * pinned in row 0's column 0 that way, and tests each leaf's shifts against a board's holes:
 * a board with holes keeps a subset of the whole torus's solutions. */
static inline uint64_t q_rot_right(uint64_t x, int64_t k, int64_t n, uint64_t full) {
    return k ? ((x >> k) | (x << (n - k))) & full : x;
}

PB_HOT static void walk_torus(int64_t n, const int64_t *allowed, const int64_t *board,
                              int64_t row0, const int64_t *prefix, int64_t *cols,
                              int64_t *left, int64_t *right, int64_t *free, int64_t *top,
                              int64_t budget, int64_t images, int64_t out[2]) {
    uint64_t full = ((uint64_t)1 << n) - 1;
    int64_t last = n - 1 - row0;
    const int64_t *below = allowed + row0;
    int64_t d = top[0], count = 0, nodes = 0;
    while (d >= 0 && nodes < budget) {
        int64_t f = free[d];
        if (f == 0) {
            d -= 1;
            continue;
        }
        int64_t bit = f & -f;
        free[d] = f ^ bit;
        nodes += 1;
        if (d == last) {
            if (!images) {
                count += 1;
                continue;
            }
            uint64_t fit = full, mirror = images == 2 ? full : 0;
            for (int64_t r = 0; r < n && (fit | mirror); r++) {
                int64_t q = r < row0 ? prefix[r]
                            : r == n - 1 ? (int64_t)LOW((uint64_t)bit)
                                         : (int64_t)LOW((uint64_t)(cols[r - row0 + 1] ^
                                                                   cols[r - row0]));
                uint64_t m = (uint64_t)board[r];
                fit &= q_rot_right(m, q, n, full);
                mirror &= q_rot_right(m, (n - q) % n, n, full);
            }
            count += (int64_t)(POP(fit) + POP(mirror));
            continue;
        }
        uint64_t l = (uint64_t)(left[d] | bit), r = (uint64_t)(right[d] | bit);
        int64_t nc = cols[d] | bit;
        int64_t nl = (int64_t)(((l << 1) | (l >> (n - 1))) & full);
        int64_t nr = (int64_t)(((r >> 1) | (r << (n - 1))) & full);
        d += 1;
        cols[d] = nc;
        left[d] = nl;
        right[d] = nr;
        free[d] = below[d] & ~(nc | nl | nr);
    }
    top[0] = d;
    out[0] = count;
    out[1] = nodes;
}

static PyObject *py_queens_walk_torus(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 12) {
        PyErr_SetString(PyExc_TypeError, "queens_walk_torus takes 12 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    int64_t n, row0, budget, images, out[2];
    Py_ssize_t n_allowed, n_board, n_cols, n_prefix;
    const int64_t *allowed, *board, *prefix;
    int64_t *cols, *left, *right, *free, *top;
    if (int_arg(args, 0, &n) < 0) goto fail;
    if (!(allowed = ARR(int64_t, 1, 0, &n_allowed, NULL))) goto fail;
    if (!(board = ARR(int64_t, 2, 0, &n_board, NULL))) goto fail;
    if (int_arg(args, 3, &row0) < 0) goto fail;
    if (!(prefix = ARR(int64_t, 4, 0, &n_prefix, NULL))) goto fail;
    if (!(cols = ARR(int64_t, 5, 1, &n_cols, NULL))) goto fail;
    if (!(left = ARR(int64_t, 6, 1, NULL, NULL))) goto fail;
    if (!(right = ARR(int64_t, 7, 1, NULL, NULL))) goto fail;
    if (!(free = ARR(int64_t, 8, 1, NULL, NULL))) goto fail;
    if (!(top = ARR(int64_t, 9, 1, NULL, NULL))) goto fail;
    if (int_arg(args, 10, &budget) < 0) goto fail;
    if (int_arg(args, 11, &images) < 0) goto fail;
    if (n < 1 || n > 62 || n_allowed < n || n_board < n || row0 < 0 || row0 >= n ||
        n_prefix < row0 || n_cols < n - row0 + 1 || images < 0 || images > 2) {
        PyErr_SetString(PyExc_ValueError, "queens_walk_torus: arrays do not fit n");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    walk_torus(n, allowed, board, row0, prefix, cols, left, right, free, top, budget, images,
               out);
    Py_END_ALLOW_THREADS
    release(&held);
    return Py_BuildValue("(LL)", (long long)out[0], (long long)out[1]);
fail:
    release(&held);
    return NULL;
}

/* The solutions fixed by each map of a board's group, summed for Burnside's lemma (#38).
 * Element ``e`` of ``0 .. 8 * T - 1`` (T = n * n on a torus, else 1) is the symmetry
 * ``k = e / T`` of the square, moved back onto the board, then shifted by
 * ``(a, b) = ((e % T) / n, e % n)`` around the torus; k numbers the images as q_image_at:
 * 0 the identity, 1 the mirror, 2 the flip, 3 the half turn, 4 the transpose, 5 the other
 * diagonal's mirror, 6 and 7 the quarter turns. An element that does not keep the squares in
 * ``allowed`` is not in the board's group; the identity is counted in the group's order but
 * not searched (its fixed solutions are the raw count). A fixed solution is a union of the
 * element's cycles on the squares: each cycle whose squares share no line is placed whole,
 * the first free row filled each time. ``state``: the next element, the sum of fixed
 * solutions, the group's order; the call stops between elements once ``budget`` nodes are
 * spent. Returns the nodes. */
typedef struct {
    uint64_t rows, cols, diag, anti;
} QLines;

static int64_t q_map(int64_t n, int64_t k, int64_t r, int64_t c) {
    int64_t top = n - 1, x, y;
    switch (k) {
    case 0: x = r; y = c; break;
    case 1: x = r; y = top - c; break;
    case 2: x = top - r; y = c; break;
    case 3: x = top - r; y = top - c; break;
    case 4: x = c; y = r; break;
    case 5: x = top - c; y = top - r; break;
    case 6: x = c; y = top - r; break;
    default: x = top - c; y = r; break;
    }
    return x * n + y;
}

static int64_t q_fixed_one(int64_t n, int torus, const int64_t *allowed, const int32_t *image,
                           QLines *cycle, int32_t *seen, int64_t *nodes_out) {
    int64_t nn = n * n;
    uint64_t full = ((uint64_t)1 << n) - 1;
    for (int64_t s = 0; s < nn; s++) seen[s] = 0;
    for (int64_t s = 0; s < nn; s++) {
        if (seen[s] || !((allowed[s / n] >> (s % n)) & 1)) continue;
        QLines m = {0, 0, 0, 0};
        int ok = 1;
        int64_t t = s;
        do {
            int64_t r = t / n, c = t % n;
            int64_t d1 = torus ? (r + c) % n : r + c;
            int64_t d2 = torus ? (r - c + n) % n : r - c + n - 1;
            uint64_t br = (uint64_t)1 << r, bc = (uint64_t)1 << c;
            uint64_t b1 = (uint64_t)1 << d1, b2 = (uint64_t)1 << d2;
            if ((m.rows & br) || (m.cols & bc) || (m.diag & b1) || (m.anti & b2)) ok = 0;
            m.rows |= br;
            m.cols |= bc;
            m.diag |= b1;
            m.anti |= b2;
            seen[t] = 1;
            t = image[t];
        } while (t != s);
        if (!ok) m.rows = ~(uint64_t)0; /* a cycle no solution can hold */
        t = s;
        do {
            cycle[t] = m;
            t = image[t];
        } while (t != s);
    }
    /* depth-first: level d holds the lines taken and the squares of its row left to try */
    QLines at[64];
    uint64_t todo[64];
    int64_t row[64];
    int64_t d = 0, count = 0, nodes = 0;
    at[0] = (QLines){0, 0, 0, 0};
    row[0] = 0;
    todo[0] = (uint64_t)allowed[0] & full;
    while (d >= 0) {
        if (todo[d] == 0) {
            d -= 1;
            continue;
        }
        uint64_t bit = todo[d] & (~todo[d] + 1);
        todo[d] ^= bit;
        nodes += 1;
        const QLines *m = &cycle[row[d] * n + (int64_t)LOW(bit)];
        const QLines *h = &at[d];
        if (m->rows > full || (m->rows & h->rows) || (m->cols & h->cols) || (m->diag & h->diag) ||
            (m->anti & h->anti))
            continue;
        QLines next = {h->rows | m->rows, h->cols | m->cols, h->diag | m->diag,
                       h->anti | m->anti};
        if (next.rows == full) {
            count += 1;
            continue;
        }
        int64_t r = (int64_t)LOW(~next.rows);
        d += 1;
        at[d] = next;
        row[d] = r;
        todo[d] = (uint64_t)allowed[r] & full & ~next.cols;
    }
    *nodes_out += nodes;
    return count;
}

/* On a whole torus every translation is in the group, and conjugating a map
 * ``x -> A x + t`` by the shift ``s`` gives ``x -> A x + t + (I - A) s``: maps whose shifts
 * differ by an element of the image of ``I - A`` fix equally many solutions. ``weight[t]``
 * becomes the size of t's class for the first shift of each class (in order), 0 for the
 * others: n * n + 4 n + 3 searches instead of 8 n * n (#38: a 19-torus's Burnside phase
 * walked 150 M nodes without this). */
static void q_classes(int64_t n, int64_t k, int32_t *weight, int32_t *step) {
    int64_t nn = n * n, m = 0, o = q_map(n, k, 0, 0);
    for (int64_t s = 0; s < nn; s++) {
        int64_t t = q_map(n, k, s / n, s % n);
        int64_t x = ((s / n - (t / n - o / n)) % n + n) % n;
        int64_t y = ((s % n - (t % n - o % n)) % n + n) % n;
        int64_t v = x * n + y, j;
        for (j = 0; j < m && step[j] != v; j++) {
        }
        if (j == m) step[m++] = (int32_t)v;
    }
    for (int64_t t = 0; t < nn; t++) weight[t] = -1;
    for (int64_t t = 0; t < nn; t++) {
        if (weight[t] >= 0) continue;
        weight[t] = (int32_t)m;
        for (int64_t j = 0; j < m; j++) {
            int64_t u = (((t / n + step[j] / n) % n) * n) + (t % n + step[j] % n) % n;
            if (u != t) weight[u] = 0;
        }
    }
}

static int64_t queens_fixed(int64_t n, int torus, const int64_t *allowed, int64_t *state,
                            int64_t budget) {
    int64_t nn = n * n, per = torus ? nn : 1, total = 8 * per, nodes = 0;
    int32_t *image = PyMem_RawMalloc(sizeof(int32_t) * 4 * nn);
    QLines *cycle = PyMem_RawMalloc(sizeof(QLines) * nn);
    if (!image || !cycle) {
        PyMem_RawFree(image);
        PyMem_RawFree(cycle);
        return -1;
    }
    int32_t *seen = image + nn, *weight = image + 2 * nn, *step = image + 3 * nn;
    uint64_t full = ((uint64_t)1 << n) - 1;
    int whole = torus;
    for (int64_t r = 0; r < n; r++)
        if (((uint64_t)allowed[r] & full) != full) whole = 0;
    int64_t classes_of = -1;
    int64_t e = state[0];
    for (; e < total && nodes < budget; e++) {
        int64_t k = e / per, a = (e % per) / n, b = e % n;
        if (!torus) a = b = 0;
        if (whole) {
            if (classes_of != k) {
                q_classes(n, k, weight, step);
                classes_of = k;
            }
            state[2] += 1;
            if (e == 0 || weight[e % per] == 0) continue;
            for (int64_t s = 0; s < nn; s++) {
                int64_t t = q_map(n, k, s / n, s % n);
                image[s] = (int32_t)(((t / n + a) % n) * n + (t % n + b) % n);
            }
            state[1] += weight[e % per] * q_fixed_one(n, torus, allowed, image, cycle, seen,
                                                      &nodes);
            continue;
        }
        int keeps = 1;
        for (int64_t s = 0; s < nn; s++) {
            int64_t r = s / n, c = s % n;
            int64_t t = q_map(n, k, r, c);
            int64_t x = (t / n + a) % n, y = (t % n + b) % n;
            image[s] = (int32_t)(x * n + y);
            if (keeps && ((allowed[r] >> c) & 1) && !((allowed[x] >> y) & 1)) keeps = 0;
        }
        if (!keeps) continue;
        state[2] += 1;
        if (e == 0) continue; /* the identity: the raw count */
        state[1] += q_fixed_one(n, torus, allowed, image, cycle, seen, &nodes);
    }
    state[0] = e;
    PyMem_RawFree(image);
    PyMem_RawFree(cycle);
    return nodes;
}

static PyObject *py_queens_fixed(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 5) {
        PyErr_SetString(PyExc_TypeError, "queens_fixed takes 5 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    int64_t n, torus, budget, nodes;
    Py_ssize_t n_allowed, n_state;
    const int64_t *allowed;
    int64_t *state;
    if (int_arg(args, 0, &n) < 0) goto fail;
    if (int_arg(args, 1, &torus) < 0) goto fail;
    if (!(allowed = ARR(int64_t, 2, 0, &n_allowed, NULL))) goto fail;
    if (!(state = ARR(int64_t, 3, 1, &n_state, NULL))) goto fail;
    if (int_arg(args, 4, &budget) < 0) goto fail;
    if (n < 1 || n > 31 || n_allowed < n || n_state < 3 || state[0] < 0) {
        PyErr_SetString(PyExc_ValueError, "queens_fixed: arguments do not fit");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    nodes = queens_fixed(n, torus != 0, allowed, state, budget);
    Py_END_ALLOW_THREADS
    release(&held);
    if (nodes < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong((long long)nodes);
fail:
    release(&held);
    return NULL;
}

/* -- the general exact-cover engine ----------------------------------------------------------
 * engine/_kernels.py (setup, search): Algorithm M with colours on one bitset of the options
 * per level; its docstring and engine/compiled.py say how the arrays are laid out. The
 * registers, phases, frame fields, kinds, modes and statuses are engine/cover_kernels.py's
 * numbers (a test compares them). Unsigned 32-bit tables, as numba's. */

/* gcc's loop unrolling, for this engine only: without it gcc 12's -O3 counted the 6x10
 * pentominoes (3.6 million nodes) in a median of 1.62-1.78 s of CPU against numba's 1.60 s;
 * with it 1.53 s (9 alternating rounds in one process, load 2.5-4). On the queens' tree it
 * costs a little (13 queens: 0.186 s against 0.173 s, numba 0.196 s). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("unroll-loops")
#endif

enum { CV_R_LEVEL = 0, CV_R_PHASE, CV_R_PACT, CV_R_SACT, CV_R_NODES, CV_R_SOLUTIONS, CV_R_SEED,
       CV_R_RNG, CV_R_SUB0, CV_R_SUBSOL, CV_N_REGS };
enum { CV_P_ENTER = 0, CV_P_NEXT, CV_P_RETURN, CV_P_DONE };
enum { CV_F_ITEM = 0, CV_F_KIND, CV_F_NOMORE, CV_F_L0, CV_F_T, CV_F_CHOSEN, CV_F_BL, CV_F_PACT,
       CV_F_SACT, CV_F_DEG, CV_N_FIELDS };
enum { CV_K_COVER = 0, CV_K_KEEP = 1 };
enum { CV_M_COUNT = 0, CV_M_SOLUTIONS, CV_M_FRONTIER, CV_M_PROBE };
enum { CV_S_DONE = 0, CV_S_SOLUTIONS, CV_S_BUDGET, CV_S_FULL, CV_S_GROW };
#define CV_NO_BRANCHES ((int64_t)1 << 30)
#define CV_NO_ITEM ((int64_t)1 << 62)
#define CV_GOLDEN UINT64_C(0x9E3779B97F4A7C15)
#define FR(f, k) frames[(f) * CV_N_FIELDS + (k)]

typedef struct {
    int64_t n_primary;
    const uint32_t *ostart, *items, *pmask, *mstart, *mword;
    const uint64_t *mbits;
    uint64_t *W;
    Py_ssize_t W_len;
    uint64_t nw;
    uint8_t *done;
    int32_t *need, *room;
    uint32_t *act, *apos;
    int64_t *blist, *frames, *regs;
    int64_t mode, depth, max_records, max_nodes;
    int64_t *out;
    Py_ssize_t out_cap;
} Cover;

static inline void cv_hide(uint64_t o, uint64_t *restrict W, uint64_t base) {
    W[base + (o >> 6)] &= ~(UINT64_C(1) << (o & 63));
}

static inline __attribute__((always_inline)) void
cv_purge(uint32_t k, const uint32_t *restrict mstart, const uint32_t *restrict mword,
         const uint64_t *restrict mbits, uint64_t *restrict W, uint64_t base) {
    for (uint32_t t = mstart[k]; t < mstart[k + 1]; t++) W[base + mword[t]] &= ~mbits[t];
}

PB_HOT static inline __attribute__((always_inline)) uint64_t
cv_size(uint32_t j, const uint32_t *restrict mstart, const uint32_t *restrict mword,
        const uint64_t *restrict mbits, const uint64_t *restrict W, uint64_t base) {
    uint64_t n = 0;
    for (uint32_t t = mstart[j]; t < mstart[j + 1]; t++) n += POP(W[base + mword[t]] & mbits[t]);
    return n;
}

/* Mark item j done; pact and sact are updated in place. */
static inline __attribute__((always_inline)) void
cv_deactivate(uint32_t j, int64_t n_primary, uint8_t *restrict done, uint32_t *restrict act,
              uint32_t *restrict apos, int64_t *pact, int64_t *sact) {
    int64_t k;
    done[j] = 1;
    if ((int64_t)j < n_primary) {
        *pact -= 1;
        k = *pact;
    } else {
        *sact -= 1;
        k = n_primary + *sact;
    }
    uint32_t a = apos[j], last = act[k];
    act[a] = last;
    apos[last] = a;
    act[k] = j;
    apos[j] = (uint32_t)k;
}

static inline __attribute__((always_inline)) void
cv_reactivate(int64_t n_primary, const uint32_t *restrict act, uint8_t *restrict done,
              int64_t pact, int64_t sact, int64_t old_pact, int64_t old_sact) {
    for (int64_t k = pact; k < old_pact; k++) done[act[k]] = 0;
    for (int64_t k = n_primary + sact; k < n_primary + old_sact; k++) done[act[k]] = 0;
}

static inline __attribute__((always_inline)) void
cv_uncount(uint32_t o, int64_t n_primary, const uint32_t *restrict ostart,
           const uint32_t *restrict items, int32_t *restrict need, int32_t *restrict room) {
    for (uint32_t m = ostart[o]; m < ostart[o + 1]; m++) {
        uint32_t j = items[m];
        if ((int64_t)j < n_primary) {
            need[j] += 1;
            room[j] += 1;
        }
    }
}

/* Take option o (engine/_kernels.py: _include): commit its items, close the full ones. */
static inline __attribute__((always_inline)) void
cv_include(uint32_t o, int hide_it, const Cover *c, uint64_t base, int64_t *pact,
           int64_t *sact) {
    const int64_t n_primary = c->n_primary;
    if (hide_it) cv_hide(o, c->W, base);
    uint32_t a = c->ostart[o], b = c->ostart[o + 1];
    for (uint32_t m = a; m < b; m++) {
        uint32_t j = c->items[m];
        if ((int64_t)j < n_primary) {
            c->need[j] -= 1;
            c->room[j] -= 1;
        }
    }
    for (uint32_t m = a; m < b; m++) {
        uint32_t j = c->items[m];
        if (c->done[j] == 0 && ((int64_t)j >= n_primary || c->room[j] == 0)) {
            cv_deactivate(j, n_primary, c->done, c->act, c->apos, pact, sact);
            cv_purge(c->pmask[m], c->mstart, c->mword, c->mbits, c->W, base);
        }
    }
}

/* engine/_kernels.py: setup. Returns 1, or 0 when the forced options clash. */
static int cover_setup(const Cover *c, const int32_t *excluded, Py_ssize_t n_excluded,
                       const int32_t *forced, Py_ssize_t n_forced, Py_ssize_t n_items) {
    int64_t pact = c->n_primary, sact = (int64_t)n_items - c->n_primary;
    for (Py_ssize_t k = 0; k < n_excluded; k++) cv_hide((uint32_t)excluded[k], c->W, 0);
    for (int64_t j = 0; j < c->n_primary; j++)
        if (c->room[j] == 0 && c->done[j] == 0) {
            cv_deactivate((uint32_t)j, c->n_primary, c->done, c->act, c->apos, &pact, &sact);
            cv_purge((uint32_t)j, c->mstart, c->mword, c->mbits, c->W, 0);
        }
    int ok = 1;
    for (Py_ssize_t k = 0; k < n_forced; k++) {
        uint32_t o = (uint32_t)forced[k];
        if (((c->W[o >> 6] >> (o & 63)) & 1) == 0) {
            ok = 0;
            break;
        }
        cv_include(o, 1, c, 0, &pact, &sact);
    }
    c->regs[CV_R_LEVEL] = 0;
    c->regs[CV_R_PHASE] = ok ? CV_P_ENTER : CV_P_DONE;
    c->regs[CV_R_PACT] = pact;
    c->regs[CV_R_SACT] = sact;
    c->regs[CV_R_NODES] = 0;
    c->regs[CV_R_SOLUTIONS] = 0;
    return ok;
}

/* The options frame f's current branch leaves out: blist[*a .. *b). */
static inline void cv_excluded_range(const int64_t *frames, int64_t f, int64_t *a, int64_t *b) {
    int64_t base = FR(f, CV_F_BL);
    *a = base;
    if (FR(f, CV_F_KIND) == CV_K_COVER)
        *b = base + (FR(f, CV_F_CHOSEN) < 0 ? FR(f, CV_F_L0) : 0);
    else
        *b = base + FR(f, CV_F_T);
}

static int64_t cv_record_length(int64_t mode, int64_t level, const int64_t *frames) {
    int64_t n = 1;
    for (int64_t f = 0; f < level; f++)
        if (FR(f, CV_F_CHOSEN) >= 0) n += 1;
    if (mode == CV_M_FRONTIER) {
        n += 1;
        for (int64_t f = 0; f < level; f++) {
            int64_t a, b;
            cv_excluded_range(frames, f, &a, &b);
            n += b - a;
        }
    }
    return n;
}

static int64_t cv_write_record(int64_t mode, int64_t level, const int64_t *frames,
                               const int64_t *blist, int64_t *out, int64_t w) {
    int64_t h = w;
    w += 1;
    for (int64_t f = 0; f < level; f++) {
        int64_t o = FR(f, CV_F_CHOSEN);
        if (o >= 0) out[w++] = o;
    }
    out[h] = w - h - 1;
    if (mode == CV_M_FRONTIER) {
        h = w;
        w += 1;
        for (int64_t f = 0; f < level; f++) {
            int64_t a, b;
            cv_excluded_range(frames, f, &a, &b);
            for (int64_t k = a; k < b; k++) out[w++] = blist[k];
        }
        out[h] = w - h - 1;
    }
    return w;
}

/* The available option of item i with the highest number (it has one). */
PB_HOT static inline __attribute__((always_inline)) int64_t
cv_highest(uint32_t i, const uint32_t *restrict mstart, const uint32_t *restrict mword,
           const uint64_t *restrict mbits, const uint64_t *restrict W, uint64_t base) {
    uint32_t u = mstart[i + 1] - 1;
    while ((W[base + mword[u]] & mbits[u]) == 0) u -= 1;
    uint64_t x = W[base + mword[u]] & mbits[u];
    return (int64_t)mword[u] * 64 + (int64_t)(63 - __builtin_clzll(x));
}

/* engine/_kernels.py: _probe_branch. */
PB_HOT static void cv_probe_branch(int64_t f, uint32_t i, int64_t pick, const Cover *c, uint64_t base) {
    int64_t *frames = c->frames;
    if (FR(f, CV_F_KIND) == CV_K_COVER) {
        FR(f, CV_F_T) = pick;
        return;
    }
    int64_t b = FR(f, CV_F_BL);
    for (int64_t q = 0; q < pick; q++) {
        int64_t o = cv_highest(i, c->mstart, c->mword, c->mbits, c->W, base);
        c->blist[b + q] = o;
        cv_hide((uint64_t)o, c->W, base);
    }
    FR(f, CV_F_T) = pick;
}

/* engine/_kernels.py: _probe_record. Returns the new end, or -1 when out cannot hold it. */
static int64_t cv_probe_record(int64_t *out, Py_ssize_t out_cap, int64_t w,
                               const int64_t *frames, int64_t level, int64_t sub_nodes,
                               int64_t sub_solutions) {
    if (w + level + 3 > out_cap) return -1;
    out[w] = level + 2;
    for (int64_t f = 0; f < level; f++) out[w + 1 + f] = FR(f, CV_F_DEG);
    out[w + 1 + level] = sub_nodes;
    out[w + 2 + level] = sub_solutions;
    return w + level + 3;
}

/* engine/_kernels.py: _restore_root. */
static void cv_restore_root(int64_t level, const Cover *c, int64_t *pact, int64_t *sact) {
    const int64_t *frames = c->frames;
    for (int64_t f = 0; f < level; f++) {
        int64_t o = FR(f, CV_F_CHOSEN);
        if (o >= 0) cv_uncount((uint32_t)o, c->n_primary, c->ostart, c->items, c->need, c->room);
    }
    int cover = FR(0, CV_F_KIND) == CV_K_COVER;
    int64_t root_pact = FR(0, CV_F_PACT) + (cover ? 1 : 0);
    int64_t root_sact = FR(0, CV_F_SACT);
    cv_reactivate(c->n_primary, c->act, c->done, *pact, *sact, root_pact, root_sact);
    int64_t b = FR(0, CV_F_BL);
    int64_t e = b + (cover ? FR(0, CV_F_L0) : FR(0, CV_F_T));
    for (int64_t k = b; k < e; k++) {
        uint32_t o = (uint32_t)c->blist[k];
        c->W[o >> 6] |= UINT64_C(1) << (o & 63);
    }
    *pact = root_pact;
    *sact = root_sact;
}

/* engine/_kernels.py: search, statement for statement. Returns the status; *written the ints
 * written to out. */
PB_HOT static inline __attribute__((always_inline)) int64_t
cover_run(const Cover *c, const int64_t mode, int64_t *written) {
    const int64_t n_primary = c->n_primary, depth = c->depth;
    const uint64_t nw = c->nw;
    const uint32_t *restrict ostart = c->ostart, *restrict items = c->items,
                   *restrict pmask = c->pmask, *restrict mstart = c->mstart,
                   *restrict mword = c->mword;
    const uint64_t *restrict mbits = c->mbits;
    uint64_t *restrict W = c->W;
    uint8_t *restrict done = c->done;
    int32_t *restrict need = c->need, *restrict room = c->room;
    uint32_t *restrict act = c->act, *restrict apos = c->apos;
    int64_t *restrict blist = c->blist, *restrict frames = c->frames, *restrict regs = c->regs;
    int64_t *restrict out = c->out;
    const Py_ssize_t out_cap = c->out_cap;
    const uint64_t W_len = (uint64_t)c->W_len;
    int64_t level = regs[CV_R_LEVEL], phase = regs[CV_R_PHASE];
    int64_t pact = regs[CV_R_PACT], sact = regs[CV_R_SACT];
    int64_t nodes = regs[CV_R_NODES], found = regs[CV_R_SOLUTIONS];
    const int64_t node_stop = nodes + c->max_nodes, found_stop = found + c->max_records;
    const uint64_t seed = cv_mix((uint64_t)regs[CV_R_SEED]);
    uint64_t rng = (uint64_t)regs[CV_R_RNG];
    int64_t sub0 = regs[CV_R_SUB0], subsol = regs[CV_R_SUBSOL];
    int64_t w = 0, status = CV_S_DONE;
    for (;;) {
        if (phase == CV_P_ENTER) {
            if (nodes >= node_stop) {
                status = CV_S_BUDGET;
                break;
            }
            nodes += 1;
            const uint64_t base = (uint64_t)level * nw;
            /* the item with the fewest branches, the smallest number of a tie */
            int64_t key = CV_NO_ITEM;
            for (int64_t k = 0; k < pact; k++) {
                uint32_t j = act[k];
                int64_t r = need[j];
                int64_t sz = 0;
                for (uint32_t t = mstart[j]; t < mstart[j + 1]; t++)
                    sz += (int64_t)POP(W[base + mword[t]] & mbits[t]);
                int64_t th = r > 0 ? sz - r + 1 : (sz > 0 ? sz + 1 : CV_NO_BRANCHES);
                int64_t kj = (int64_t)((uint64_t)th << 32) | (int64_t)j;
                key = kj < key ? kj : key;
                if (th <= 0) {
                    if (k > 0) {
                        uint32_t first = act[0];
                        act[0] = j;
                        apos[j] = 0;
                        act[k] = first;
                        apos[first] = (uint32_t)k;
                    }
                    break;
                }
            }
            int64_t bi, best;
            if (key == CV_NO_ITEM) {
                bi = -1;
                best = CV_NO_BRANCHES;
            } else {
                bi = key & (int64_t)0xFFFFFFFF;
                best = key >> 32;
            }
            if (bi >= 0 && best <= 0 && (mode != CV_M_PROBE || level > depth)) {
                phase = CV_P_RETURN;
                continue;
            }
            if (bi < 0 || best <= 0 || (mode == CV_M_FRONTIER && level == depth)) {
                if (mode == CV_M_PROBE) {
                    if (level > depth) {
                        subsol += 1;
                        phase = CV_P_RETURN;
                        continue;
                    }
                    int64_t w2 = cv_probe_record(out, out_cap, w, frames, level, 1, bi < 0);
                    if (w2 < 0) {
                        nodes -= 1;
                        status = CV_S_FULL;
                        break;
                    }
                    w = w2;
                    found += 1;
                    if (level > 0) {
                        cv_restore_root(level, c, &pact, &sact);
                        level = 0;
                    }
                    phase = CV_P_ENTER;
                    if (found >= found_stop) {
                        status = CV_S_SOLUTIONS;
                        break;
                    }
                    continue;
                }
                if (mode != CV_M_COUNT) {
                    int64_t need_w = cv_record_length(mode, level, frames);
                    if (w + need_w > out_cap) {
                        nodes -= 1;
                        status = CV_S_FULL;
                        break;
                    }
                    w = cv_write_record(mode, level, frames, blist, out, w);
                }
                found += 1;
                phase = CV_P_RETURN;
                if (found >= found_stop) {
                    status = CV_S_SOLUTIONS;
                    break;
                }
                continue;
            }
            const int64_t f = level;
            level += 1;
            const uint32_t i = (uint32_t)bi;
            FR(f, CV_F_ITEM) = bi;
            FR(f, CV_F_T) = 0;
            if (f == 0) {
                FR(f, CV_F_BL) = 0;
            } else {
                int64_t g = f - 1;
                int64_t used = FR(g, CV_F_KIND) == CV_K_COVER ? FR(g, CV_F_L0) : FR(g, CV_F_T) + 1;
                FR(f, CV_F_BL) = FR(g, CV_F_BL) + used;
            }
            if (room[i] == 1) {
                /* record the item's options, then cover it: they leave the bitset */
                FR(f, CV_F_KIND) = CV_K_COVER;
                FR(f, CV_F_NOMORE) = need[i] <= 0 ? 1 : 0;
                int64_t b = FR(f, CV_F_BL);
                for (uint32_t t = mstart[i]; t < mstart[i + 1]; t++) {
                    uint64_t x = W[base + mword[t]] & mbits[t];
                    int64_t k0 = (int64_t)mword[t] * 64;
                    while (x) {
                        blist[b++] = k0 + (int64_t)LOW(x);
                        x &= x - 1;
                    }
                    W[base + mword[t]] &= ~mbits[t];
                }
                FR(f, CV_F_L0) = b - FR(f, CV_F_BL);
                cv_deactivate(i, n_primary, done, act, apos, &pact, &sact);
            } else {
                FR(f, CV_F_KIND) = CV_K_KEEP;
                FR(f, CV_F_NOMORE) = 0;
                FR(f, CV_F_L0) = 0;
            }
            if (mode == CV_M_PROBE) {
                if (f < depth) {
                    if (f == 0) rng = cv_mix(seed + (uint64_t)found * CV_GOLDEN);
                    rng += CV_GOLDEN;
                    int64_t pick = (int64_t)(((cv_mix(rng) >> 32) * (uint64_t)best) >> 32);
                    FR(f, CV_F_DEG) = best;
                    cv_probe_branch(f, i, pick, c, base);
                } else if (f == depth) {
                    sub0 = nodes - 1;
                    subsol = 0;
                }
            }
            phase = CV_P_NEXT;
        } else if (phase == CV_P_NEXT) {
            const int64_t f = level - 1;
            const uint64_t base = (uint64_t)f * nw;
            const uint32_t i = (uint32_t)FR(f, CV_F_ITEM);
            const int64_t kind = FR(f, CV_F_KIND);
            const int64_t t = FR(f, CV_F_T);
            int64_t branch = -2; /* -2: none left, -1: "no more", else the option to take */
            if (kind == CV_K_COVER) {
                if (t < FR(f, CV_F_L0))
                    branch = blist[FR(f, CV_F_BL) + t];
                else if (t == FR(f, CV_F_L0) && FR(f, CV_F_NOMORE) == 1)
                    branch = -1;
            } else {
                int64_t r = need[i];
                if ((int64_t)cv_size(i, mstart, mword, mbits, W, base) >= (r > 1 ? r : 1)) {
                    branch = cv_highest(i, mstart, mword, mbits, W, base);
                    blist[FR(f, CV_F_BL) + t] = branch;
                } else if (r <= 0 && FR(f, CV_F_NOMORE) == 0) {
                    branch = -1;
                }
            }
            if (branch == -2) {
                if (mode == CV_M_PROBE && f == depth) {
                    int64_t w2 = cv_probe_record(out, out_cap, w, frames, f, nodes - sub0,
                                                 subsol);
                    if (w2 < 0) {
                        status = CV_S_FULL;
                        break;
                    }
                    w = w2;
                    found += 1;
                    cv_restore_root(f, c, &pact, &sact);
                    level = 0;
                    phase = CV_P_ENTER;
                    if (found >= found_stop) {
                        status = CV_S_SOLUTIONS;
                        break;
                    }
                    continue;
                }
                level -= 1;
                phase = CV_P_RETURN;
                continue;
            }
            const uint64_t child = base + nw;
            if (child + nw > W_len) {
                status = CV_S_GROW;
                break;
            }
            for (uint64_t k = 0; k < nw; k++) W[child + k] = W[base + k];
            FR(f, CV_F_CHOSEN) = branch;
            FR(f, CV_F_PACT) = pact;
            FR(f, CV_F_SACT) = sact;
            if (kind == CV_K_COVER) FR(f, CV_F_T) = t + 1;
            if (branch >= 0) {
                const uint32_t o = (uint32_t)branch;
                if (kind == CV_K_KEEP) cv_hide(o, W, child);
                const uint32_t a = ostart[o], b = ostart[o + 1];
                for (uint32_t m = a; m < b; m++) {
                    uint32_t j = items[m];
                    if ((int64_t)j < n_primary) {
                        need[j] -= 1;
                        room[j] -= 1;
                    }
                }
                for (uint32_t m = a; m < b; m++) {
                    uint32_t j = items[m];
                    if (done[j] == 0 && ((int64_t)j >= n_primary || room[j] == 0)) {
                        cv_deactivate(j, n_primary, done, act, apos, &pact, &sact);
                        cv_purge(pmask[m], mstart, mword, mbits, W, child);
                    }
                }
            } else if (kind == CV_K_KEEP) {
                FR(f, CV_F_NOMORE) = 1;
                cv_deactivate(i, n_primary, done, act, apos, &pact, &sact);
                cv_purge(i, mstart, mword, mbits, W, child);
            }
            phase = CV_P_ENTER;
        } else if (phase == CV_P_RETURN) {
            if (level == 0) {
                phase = CV_P_DONE;
                status = CV_S_DONE;
                break;
            }
            const int64_t f = level - 1;
            const int64_t old_pact = FR(f, CV_F_PACT), old_sact = FR(f, CV_F_SACT);
            cv_reactivate(n_primary, act, done, pact, sact, old_pact, old_sact);
            pact = old_pact;
            sact = old_sact;
            const int64_t o = FR(f, CV_F_CHOSEN);
            if (o >= 0) {
                cv_uncount((uint32_t)o, n_primary, ostart, items, need, room);
                if (FR(f, CV_F_KIND) == CV_K_KEEP) {
                    cv_hide((uint64_t)o, W, (uint64_t)f * nw);
                    FR(f, CV_F_T) += 1;
                }
            }
            phase = CV_P_NEXT;
        } else {
            status = CV_S_DONE;
            break;
        }
    }
    regs[CV_R_LEVEL] = level;
    regs[CV_R_PHASE] = phase;
    regs[CV_R_PACT] = pact;
    regs[CV_R_SACT] = sact;
    regs[CV_R_NODES] = nodes;
    regs[CV_R_SOLUTIONS] = found;
    regs[CV_R_RNG] = (int64_t)rng;
    regs[CV_R_SUB0] = sub0;
    regs[CV_R_SUBSOL] = subsol;
    *written = w;
    return status;
}

/* One copy of the loop per mode, as for the bitboard engine: each drops the other modes'
 * tests. */
PB_HOT static int64_t cover_count(const Cover *c, int64_t *w) { return cover_run(c, CV_M_COUNT, w); }
PB_HOT static int64_t cover_solutions(const Cover *c, int64_t *w) {
    return cover_run(c, CV_M_SOLUTIONS, w);
}
PB_HOT static int64_t cover_frontier(const Cover *c, int64_t *w) {
    return cover_run(c, CV_M_FRONTIER, w);
}
PB_HOT static int64_t cover_probe(const Cover *c, int64_t *w) { return cover_run(c, CV_M_PROBE, w); }

/* The tables both kernels read, arguments 0..6 (n_primary .. mbits). */
static int cover_tables(PyObject *args, Cover *c, Held *h) {
#define CARR(T, i, len) ((T *)array_arg(args, (i), (Py_ssize_t)sizeof(T), 0, h, (len), NULL))
    if (int_arg(args, 0, &c->n_primary) < 0) return -1;
    if (!(c->ostart = CARR(uint32_t, 1, NULL))) return -1;
    if (!(c->items = CARR(uint32_t, 2, NULL))) return -1;
    if (!(c->pmask = CARR(uint32_t, 3, NULL))) return -1;
    if (!(c->mstart = CARR(uint32_t, 4, NULL))) return -1;
    if (!(c->mword = CARR(uint32_t, 5, NULL))) return -1;
    if (!(c->mbits = CARR(uint64_t, 6, NULL))) return -1;
#undef CARR
    return 0;
}

static PyObject *py_cover_setup(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 16) {
        PyErr_SetString(PyExc_TypeError, "cover_setup takes 16 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    Cover c;
    Py_ssize_t n_items, n_regs, n_excluded, n_forced;
    const int32_t *excluded, *forced;
    if (cover_tables(args, &c, &held) < 0) goto fail;
    if (!(c.W = ARR(uint64_t, 7, 1, &c.W_len, NULL))) goto fail;
    if (!(c.done = ARR(uint8_t, 8, 1, &n_items, NULL))) goto fail;
    if (!(c.need = ARR(int32_t, 9, 1, NULL, NULL))) goto fail;
    if (!(c.room = ARR(int32_t, 10, 1, NULL, NULL))) goto fail;
    if (!(c.act = ARR(uint32_t, 11, 1, NULL, NULL))) goto fail;
    if (!(c.apos = ARR(uint32_t, 12, 1, NULL, NULL))) goto fail;
    if (!(c.regs = ARR(int64_t, 13, 1, &n_regs, NULL))) goto fail;
    if (!(excluded = ARR(int32_t, 14, 0, &n_excluded, NULL))) goto fail;
    if (!(forced = ARR(int32_t, 15, 0, &n_forced, NULL))) goto fail;
    if (n_regs < CV_N_REGS) {
        PyErr_SetString(PyExc_ValueError, "cover_setup: regs too short");
        goto fail;
    }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = cover_setup(&c, excluded, n_excluded, forced, n_forced, n_items);
    Py_END_ALLOW_THREADS
    release(&held);
    return PyBool_FromLong(ok);
fail:
    release(&held);
    return NULL;
}

static PyObject *py_cover_search(PyObject *self, PyObject *args) {
    if (PyTuple_GET_SIZE(args) != 22) {
        PyErr_SetString(PyExc_TypeError, "cover_search takes 22 arguments");
        return NULL;
    }
    Held held = {.n = 0};
    Cover c;
    Py_ssize_t n_regs, cols;
    int64_t nw, status = -1, written = 0;
    if (cover_tables(args, &c, &held) < 0) goto fail;
    if (!(c.W = ARR(uint64_t, 7, 1, &c.W_len, NULL))) goto fail;
    if (int_arg(args, 8, &nw) < 0) goto fail;
    if (!(c.done = ARR(uint8_t, 9, 1, NULL, NULL))) goto fail;
    if (!(c.need = ARR(int32_t, 10, 1, NULL, NULL))) goto fail;
    if (!(c.room = ARR(int32_t, 11, 1, NULL, NULL))) goto fail;
    if (!(c.act = ARR(uint32_t, 12, 1, NULL, NULL))) goto fail;
    if (!(c.apos = ARR(uint32_t, 13, 1, NULL, NULL))) goto fail;
    if (!(c.blist = ARR(int64_t, 14, 1, NULL, NULL))) goto fail;
    if (!(c.frames = ARR(int64_t, 15, 1, NULL, &cols))) goto fail;
    if (!(c.regs = ARR(int64_t, 16, 1, &n_regs, NULL))) goto fail;
    if (int_arg(args, 17, &c.mode) < 0) goto fail;
    if (int_arg(args, 18, &c.depth) < 0) goto fail;
    if (int_arg(args, 19, &c.max_records) < 0) goto fail;
    if (int_arg(args, 20, &c.max_nodes) < 0) goto fail;
    if (!(c.out = ARR(int64_t, 21, 1, &c.out_cap, NULL))) goto fail;
    if (n_regs < CV_N_REGS || cols != CV_N_FIELDS || nw < 1 || c.mode < CV_M_COUNT ||
        c.mode > CV_M_PROBE) {
        PyErr_SetString(PyExc_ValueError, "cover_search: regs, frames, nw or mode out of range");
        goto fail;
    }
    c.nw = (uint64_t)nw;
    Py_BEGIN_ALLOW_THREADS
    switch (c.mode) {
    case CV_M_COUNT: status = cover_count(&c, &written); break;
    case CV_M_SOLUTIONS: status = cover_solutions(&c, &written); break;
    case CV_M_FRONTIER: status = cover_frontier(&c, &written); break;
    default: status = cover_probe(&c, &written); break;
    }
    Py_END_ALLOW_THREADS
    release(&held);
    return Py_BuildValue("(LL)", (long long)status, (long long)written);
fail:
    release(&held);
    return NULL;
}

#undef FR

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* -- the module ----------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"bitboard_search", py_bitboard_search, METH_VARARGS,
     "The bitboard engine's search kernel (engine/_bitboard_kernels.py: search)."},
    {"bitboard_options_left", py_bitboard_options_left, METH_VARARGS,
     "Options left per frame (engine/_bitboard_kernels.py: _options_left)."},
    {"bitboard_reachable_sizes", py_bitboard_reachable_sizes, METH_VARARGS,
     "Region sizes the options can fill (engine/_bitboard_kernels.py: _reachable_sizes)."},
    {"queens_walk_rows", py_queens_walk_rows, METH_VARARGS,
     "The n-queens row walk (engine/_queens_numba.py: walk_rows)."},
    {"queens_walk_symmetric", py_queens_walk_symmetric, METH_VARARGS,
     "The n-queens rotation-fixed walk (engine/_queens_numba.py: walk_symmetric)."},
    {"queens_walk_torus", py_queens_walk_torus, METH_VARARGS,
     "The toroidal n-queens row walk (engine/_queens_numba.py: walk_torus)."},
    {"queens_fixed", py_queens_fixed, METH_VARARGS,
     "Burnside's fixed solutions of a queens board's group (engine/_queens_numba.py: fixed)."},
    {"cover_setup", py_cover_setup, METH_VARARGS,
     "The general engine's starting position (engine/_kernels.py: setup)."},
    {"cover_search", py_cover_search, METH_VARARGS,
     "The general engine's search and probes (engine/_kernels.py: search)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ckernels",
    "puzzlebox's search kernels compiled ahead of time (see _ckernels.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__ckernels(void) {
#if PB_X86
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("bmi")) {
        PyErr_SetString(PyExc_ImportError, "this CPU lacks POPCNT/BMI: numba's kernels are used");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
