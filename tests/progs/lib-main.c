/*
 * lib-main.c - a program whose work is all in a shared library: it runs
 * the library's lib_main (another test program built with -Dmain=lib_main
 * -shared), so that an MPI program reaches libmpi only through a library:
 * one it links, as an application links a solver's library, or, built
 * with -DLIB_PATH='"PATH"', one it loads with dlopen as it starts, as a
 * Python module loads libmpi.
 */
#include <stdio.h>
#ifdef LIB_PATH
#include <dlfcn.h>

int main(int argc, char **argv)
{
	void *h = dlopen(LIB_PATH, RTLD_NOW | RTLD_GLOBAL);
	int (*lib_main)(int, char **);

	if (!h || !(*(void **)&lib_main = dlsym(h, "lib_main"))) {
		fprintf(stderr, "lib-main: %s\n", dlerror());
		return 1;
	}
	return lib_main(argc, argv);
}
#else
int lib_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return lib_main(argc, argv);
}
#endif
