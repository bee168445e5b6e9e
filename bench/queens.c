/* n-queens counted with bitmasks: the C reference the benchmark holds puzzlebox's numba
 * kernel against. Same method (the left half of the first row counted twice, the middle
 * column of an odd board mirrored one row down), plain recursion.
 *
 *   cc -O2 -o queens bench/queens.c && ./queens 16     prints: 16 14772512 <seconds>
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef unsigned long long u64;

static u64 full;

static u64 complete(u64 cols, u64 left, u64 right) {
    if (cols == full) return 1;
    u64 total = 0;
    u64 free = full & ~(cols | left | right);
    while (free) {
        u64 bit = free & (~free + 1);
        free ^= bit;
        total += complete(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
    return total;
}

static u64 count(int n) {
    if (n == 1) return 1;
    u64 total = 0;
    for (int c = 0; c < n / 2; c++) {
        u64 bit = 1ULL << c;
        total += 2 * complete(bit, (bit << 1) & full, bit >> 1);
    }
    if (n % 2 == 1) {
        u64 mid = 1ULL << (n / 2);
        u64 cols = mid, left = (mid << 1) & full, right = mid >> 1;
        for (int c = 0; c < n / 2; c++) {
            u64 bit = 1ULL << c;
            if (bit & (cols | left | right)) continue;
            total += 2 * complete(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
        }
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1 || n > 63) {
        fprintf(stderr, "%s: N must lie in 1..63\n", argv[0]);
        return 2;
    }
    full = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
    clock_t began = clock();
    u64 q = count(n);
    double seconds = (double)(clock() - began) / CLOCKS_PER_SEC;
    printf("%d %llu %.6f\n", n, q, seconds);
    return 0;
}
