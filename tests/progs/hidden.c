/* hidden.c - a library for dlmain.c whose hot function is static: once the
 * library is stripped, only its separate debug file (found by
 * .gnu_debuglink) names it. */
volatile unsigned long hidden_sink;

static __attribute__((noinline)) void hidden_spin(long n)
{
	unsigned long x = hidden_sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	hidden_sink = x;
}

void hot_spin(long n)
{
	hidden_spin(n);
}
