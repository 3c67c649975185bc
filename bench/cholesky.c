/* bench/cholesky.c - a realistic task program for `otter simulate`'s
 * validation (bench/simulate.py): a blocked Cholesky factorisation
 * A = L L^T of an NB x NB matrix of BS x BS blocks, one task per block
 * kernel (potrf, trsm, syrk, gemm) ordered by depend clauses on the
 * blocks, as in the BOTS/KASTORS versions.  Tasks do tens to hundreds of
 * microseconds of floating-point work each (BS=64: a gemm is 262,144
 * multiply-adds), so the run time is the program's, not the runtime's.
 * Usage: cholesky [NB=12] [BS=64]
 * Prints a checksum (the sum of L's diagonal) and the factorisation time. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int BS;

/* The diagonal block: A = L L^T in place (lower triangle). */
static void potrf(double *A) {
  for (int j = 0; j < BS; j++) {
    double d = A[j * BS + j];
    for (int k = 0; k < j; k++)
      d -= A[j * BS + k] * A[j * BS + k];
    d = sqrt(d);
    A[j * BS + j] = d;
    for (int i = j + 1; i < BS; i++) {
      double s = A[i * BS + j];
      for (int k = 0; k < j; k++)
        s -= A[i * BS + k] * A[j * BS + k];
      A[i * BS + j] = s / d;
    }
  }
}

/* B = B L^-T, L the factored diagonal block. */
static void trsm(const double *L, double *B) {
  for (int i = 0; i < BS; i++)
    for (int j = 0; j < BS; j++) {
      double s = B[i * BS + j];
      for (int k = 0; k < j; k++)
        s -= B[i * BS + k] * L[j * BS + k];
      B[i * BS + j] = s / L[j * BS + j];
    }
}

/* C = C - A B^T (syrk when A == B). */
static void gemm(const double *A, const double *B, double *C) {
  for (int i = 0; i < BS; i++)
    for (int j = 0; j < BS; j++) {
      double s = 0;
      for (int k = 0; k < BS; k++)
        s += A[i * BS + k] * B[j * BS + k];
      C[i * BS + j] -= s;
    }
}

int main(int argc, char **argv) {
  int NB = argc > 1 ? atoi(argv[1]) : 12;
  BS = argc > 2 ? atoi(argv[2]) : 64;
  int n = NB * BS;
  /* Block (i,j) of the lower triangle, contiguous: M[i][j]. */
  double **M = malloc(sizeof(double *) * NB * NB);
  for (int i = 0; i < NB; i++)
    for (int j = 0; j <= i; j++) {
      double *b = malloc(sizeof(double) * BS * BS);
      /* A symmetric positive definite matrix: 1/(1+|r-c|), n on the
       * diagonal. */
      for (int r = 0; r < BS; r++)
        for (int c = 0; c < BS; c++) {
          int R = i * BS + r, C = j * BS + c;
          b[r * BS + c] = R == C ? n : 1.0 / (1 + abs(R - C));
        }
      M[i * NB + j] = b;
    }
  long tasks = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < NB; k++) {
    double *Akk = M[k * NB + k];
#pragma omp task depend(inout : Akk[0])
    potrf(Akk);
    ++tasks;
    for (int i = k + 1; i < NB; i++) {
      double *Aik = M[i * NB + k];
#pragma omp task depend(in : Akk[0]) depend(inout : Aik[0])
      trsm(Akk, Aik);
      ++tasks;
    }
    for (int i = k + 1; i < NB; i++) {
      double *Aik = M[i * NB + k], *Aii = M[i * NB + i];
#pragma omp task depend(in : Aik[0]) depend(inout : Aii[0])
      gemm(Aik, Aik, Aii);
      ++tasks;
      for (int j = k + 1; j < i; j++) {
        double *Ajk = M[j * NB + k], *Aij = M[i * NB + j];
#pragma omp task depend(in : Aik[0], Ajk[0]) depend(inout : Aij[0])
        gemm(Aik, Ajk, Aij);
        ++tasks;
      }
    }
  }
  double t1 = omp_get_wtime();
  double sum = 0;
  for (int i = 0; i < NB; i++)
    for (int r = 0; r < BS; r++)
      sum += M[i * NB + i][r * BS + r];
  printf("cholesky NB=%d BS=%d threads=%d checksum=%.9e tasks=%ld time=%.4f\n",
         NB, BS, omp_get_max_threads(), sum, tasks, t1 - t0);
  for (int i = 0; i < NB; i++)
    for (int j = 0; j <= i; j++)
      free(M[i * NB + j]);
  free(M);
  return 0;
}
