// Test shim (LD_PRELOAD): the disk "fills up" after OTTER_TEST_DISK_BYTES
// bytes written to files (not to stdin, stdout or stderr); every later write
// fails with ENOSPC, as on a full file system.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long Budget = -2; // -2: not read yet, -1: unlimited

static int take(int Fd, size_t N) {
  if (Fd >= 0 && Fd <= 2)
    return 1;
  if (Budget == -2) {
    const char *S = getenv("OTTER_TEST_DISK_BYTES");
    Budget = S && *S ? atoll(S) : -1;
  }
  if (Budget < 0)
    return 1;
  if ((long long)N > Budget) {
    Budget = 0;
    errno = ENOSPC;
    return 0;
  }
  Budget -= (long long)N;
  return 1;
}

typedef size_t (*FwriteFn)(const void *, size_t, size_t, FILE *);
typedef ssize_t (*WriteFn)(int, const void *, size_t);
typedef ssize_t (*PwriteFn)(int, const void *, size_t, off_t);
typedef ssize_t (*WritevFn)(int, const struct iovec *, int);

size_t fwrite(const void *P, size_t S, size_t N, FILE *F) {
  static FwriteFn Real;
  if (!Real)
    Real = (FwriteFn)dlsym(RTLD_NEXT, "fwrite");
  if (!take(fileno(F), S * N))
    return 0;
  return Real(P, S, N, F);
}
ssize_t write(int Fd, const void *P, size_t N) {
  static WriteFn Real;
  if (!Real)
    Real = (WriteFn)dlsym(RTLD_NEXT, "write");
  if (!take(Fd, N))
    return -1;
  return Real(Fd, P, N);
}
ssize_t pwrite(int Fd, const void *P, size_t N, off_t O) {
  static PwriteFn Real;
  if (!Real)
    Real = (PwriteFn)dlsym(RTLD_NEXT, "pwrite");
  // Overwriting bytes a file already has needs no new space.
  struct stat St;
  int Inside = fstat(Fd, &St) == 0 && O + (off_t)N <= St.st_size;
  if (!Inside && !take(Fd, N))
    return -1;
  return Real(Fd, P, N, O);
}
ssize_t writev(int Fd, const struct iovec *V, int C) {
  static WritevFn Real;
  if (!Real)
    Real = (WritevFn)dlsym(RTLD_NEXT, "writev");
  size_t N = 0;
  for (int I = 0; I < C; ++I)
    N += V[I].iov_len;
  if (!take(Fd, N))
    return -1;
  return Real(Fd, V, C);
}
