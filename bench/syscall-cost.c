/*
 * What entering the kernel costs on this machine, apart from any server: a null system call, and the
 * same 256 pages read with and without one before them (the TLB refill a kernel entry causes when the
 * kernel isolates its page tables without PCID). The reply ratios to the Node peers depend on it:
 * replyd's per-request work is short and interleaved with system calls, the peers' is long
 * (docs/performance.md, Session 12).    cc -O2 bench/syscall-cost.c -o /tmp/syscall-cost && /tmp/syscall-cost
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(void) {
  const int calls = 2000000, rounds = 200000, pages = 256;
  double t = now_us();
  for (int i = 0; i < calls; i++) syscall(SYS_getppid);
  printf("null system call:              %.3f us\n", (now_us() - t) / calls);

  volatile char *m = malloc((size_t)pages * 4096);
  for (int i = 0; i < pages * 4096; i++) m[i] = 1;
  long sum = 0;
  t = now_us();
  for (int i = 0; i < rounds; i++)
    for (int p = 0; p < pages; p++) sum += m[p * 4096];
  const double touch = (now_us() - t) / rounds;
  printf("%d pages read:                 %.3f us\n", pages, touch);
  t = now_us();
  for (int i = 0; i < rounds; i++) {
    syscall(SYS_getppid);
    for (int p = 0; p < pages; p++) sum += m[p * 4096];
  }
  printf("system call, then the pages:   %.3f us\n", (now_us() - t) / rounds);
  return sum == 42; /* keeps the reads */
}
