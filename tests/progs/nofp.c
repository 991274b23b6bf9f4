/*
 * nofp.c - a program built without frame pointers (-O2
 * -fomit-frame-pointer) whose hot loop holds a pointer to text in rbp, as
 * optimized code may hold any value there: a walk of frame pointers reads
 * that text as a saved frame pointer and a return address.  The rest of
 * the time goes to a loop that leaves rbp alone.  Usage: nofp CALLS
 */
#include <stdlib.h>

static const char text[] = "not a stack frame: text that a walk of frame pointers "
			   "reads as one, and reads on";
volatile unsigned long sink;

__attribute__((noinline)) static unsigned long text_spin(const char *p, long n)
{
	register const char *junk __asm__("rbp") = p;
	unsigned long x = sink;

	for (long i = 0; i < n; i++) {
		__asm__ volatile("" : "+r"(junk));	/* junk stays in rbp */
		x = x * 6364136223846793005ul + (unsigned char)junk[i & 63];
	}
	return x;
}

__attribute__((noinline)) static unsigned long plain_spin(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1;
	return x;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 500;

	for (long i = 0; i < calls; i++) {
		sink += text_spin(text, 1000000);
		sink += plain_spin(300000);
	}
	return 0;
}
