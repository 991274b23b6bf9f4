/*
 * dlwork.c - a library that dlcycle.c loads with dlopen: dl_work spends its
 * time in pure computation, with no call into libc or anywhere else.  The
 * tests build it twice with another name for the hot function
 * (-DSPIN=alpha_spin, -DSPIN=beta_spin), so that two libraries of the same
 * code can take each other's place in the address space.
 */
#ifndef SPIN
#define SPIN dl_spin
#endif

volatile unsigned long dl_sink;

__attribute__((noinline)) unsigned long SPIN(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

void dl_work(long n)
{
	dl_sink = SPIN(dl_sink, n);	/* a store after the call: no tail call */
}
