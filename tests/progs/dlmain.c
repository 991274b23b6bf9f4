/*
 * dlmain.c - loads libhot.so with dlopen after start-up and spends its time
 * in it, then closes it.  Usage: dlmain PATH/libhot.so SECONDS
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[2]) : 2, start, t;
	void *h = dlopen(argc > 1 ? argv[1] : "./libhot.so", RTLD_NOW);
	void (*spin)(long);
	struct timespec ts;

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&spin = dlsym(h, "hot_spin");
	clock_gettime(CLOCK_MONOTONIC, &ts);
	start = ts.tv_sec + ts.tv_nsec * 1e-9;
	do {
		spin(1000000);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = ts.tv_sec + ts.tv_nsec * 1e-9;
	} while (t - start < seconds);
	dlclose(h);
	return 0;
}
