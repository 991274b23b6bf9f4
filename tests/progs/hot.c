/* hot.c - a library (libhot.so) that dlmain.c loads with dlopen. */
volatile unsigned long hot_sink;

__attribute__((noinline)) void hot_spin(long n)
{
	unsigned long x = hot_sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	hot_sink = x;
}
