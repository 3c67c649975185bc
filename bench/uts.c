/* bench/uts.c - OTTER overhead benchmark: an unbalanced tree of tasks, the
 * shape of the UTS benchmark (BOTS uts) that issue 11 names: millions of
 * small tasks whose tree is known only as it unfolds, every task waiting
 * for its children (taskwait in every task, leaves too, as in BOTS uts), so
 * 2 graph nodes per task.  The tree is a binomial one (UTS's T3 kind): the
 * root has B children, every other node M children with probability Q, none
 * otherwise; a node's children and their seeds come from a hash of its own
 * seed (splitmix64), so the tree is the same on every run and thread count.
 * The body of a task is a few hashes: the per-task cost of the tool
 * dominates, as in fib, but on a tree that is wide, shallow and irregular.
 * Usage: uts [B=40000] [M=4] [Q=0.2475] [seed=8]
 * Default: 4,070,568 tasks (~0.3-0.5 s untraced on a 2-core VM).
 * Prints the number of tasks ("tasks=", which bench/run.py parses) and a
 * checksum of the seeds. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { MaxChildren = 16 };

static int m = 4;
static uint64_t spawn_below; /* a node has children if its draw is below */

static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t child_seed(uint64_t seed, uint64_t i) {
  return mix(seed ^ ((i + 1) * 0xd1342543de82ef95ULL));
}

typedef struct {
  long tasks;
  uint64_t sum;
} count_t;

static count_t subtree(uint64_t seed) {
  int n = mix(seed ^ 0x5851f42d4c957f2dULL) < spawn_below ? m : 0;
  count_t c[MaxChildren];
  for (int i = 0; i < n; i++) {
#pragma omp task shared(c) firstprivate(i, seed)
    c[i] = subtree(child_seed(seed, (uint64_t)i));
  }
#pragma omp taskwait
  count_t r = {1, seed};
  for (int i = 0; i < n; i++) {
    r.tasks += c[i].tasks;
    r.sum += c[i].sum;
  }
  return r;
}

int main(int argc, char **argv) {
  long b = argc > 1 ? atol(argv[1]) : 40000;
  m = argc > 2 ? atoi(argv[2]) : 4;
  double q = argc > 3 ? atof(argv[3]) : 0.2475;
  uint64_t seed = argc > 4 ? strtoull(argv[4], 0, 10) : 8;
  if (b < 1 || m < 1 || m > MaxChildren || !(q >= 0 && q * m < 1)) {
    fprintf(stderr, "uts: need B >= 1, 1 <= M <= %d and 0 <= Q < 1/M "
                    "(a finite tree)\n", MaxChildren);
    return 2;
  }
  spawn_below = (uint64_t)(q * 18446744073709551616.0);
  count_t *c = malloc(sizeof(count_t) * (size_t)b);
  if (!c)
    return 1;
  count_t r = {0, 0};
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  {
    for (long i = 0; i < b; i++) {
#pragma omp task firstprivate(i)
      c[i] = subtree(child_seed(seed, (uint64_t)i));
    }
#pragma omp taskwait
  }
  double t1 = omp_get_wtime();
  for (long i = 0; i < b; i++) {
    r.tasks += c[i].tasks;
    r.sum += c[i].sum;
  }
  free(c);
  printf("uts B=%ld M=%d Q=%g seed=%llu threads=%d checksum=%llu tasks=%ld "
         "time=%.4f\n",
         b, m, q, (unsigned long long)seed, omp_get_max_threads(),
         (unsigned long long)r.sum, r.tasks, t1 - t0);
  return 0;
}
