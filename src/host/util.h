/* util.h - small helpers every host module and front end shares: the one
 * clock for timeouts and pacing. */
#ifndef FIGARO_HOST_UTIL_H
#define FIGARO_HOST_UTIL_H

/* Milliseconds on the monotonic clock (never jumps with the wall clock): for
 * deadlines, timeouts and pacing, never for dates. */
long long fig_clock_ms(void);

#endif
