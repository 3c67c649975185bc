//===- unit/thread_start_test.cpp - Modules where threads start ----------===//
//
// sites/site_index.h, moduleStartsThreads: the constructs libomp runs
// where a thread starts are its hidden helper team's, labelled so. The
// thread start is the C library's, or under a sanitizer its runtime's
// pthread_create interceptor (an ASan run of test/lit/runtime/hidden-helper.c
// had the team's parallel at libclang_rt.asan-x86_64.so+0x107427); nothing
// else is.
//
//===----------------------------------------------------------------------===//
#include "sites/site_index.h"

#include <gtest/gtest.h>

TEST(ThreadStart, TheCLibraryAndSanitizerRuntimes) {
  for (const char *M :
       {"libc.so.6", "libc-2.31.so", "libclang_rt.asan-x86_64.so",
        "libclang_rt.tsan-x86_64.so", "libasan.so.8", "libtsan.so.2",
        "libhwasan.so.0"})
    EXPECT_TRUE(otter::moduleStartsThreads(M)) << M;
  for (const char *M : {"libomp.so.5", "libcrypt.so.1", "libcurl.so.4", "a.out",
                        "libotter.so", "hidden-helper.c.tmp", ""})
    EXPECT_FALSE(otter::moduleStartsThreads(M)) << M;
}
