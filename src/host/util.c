/* util.c - small shared helpers (util.h). */
#include <time.h>

#include "host/util.h"

long long fig_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
