#include <stdio.h>
int work(int n);
int main(void) {
  printf("work=%d\n", work(10));
  return 0;
}
