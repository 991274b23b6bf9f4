/*
 * lib-main.c - a program whose work is all in a shared library: it runs
 * the library's lib_main (another test program built with -Dmain=lib_main
 * -shared), so that an MPI program reaches libmpi only through a library
 * it links, as an application does through a solver's library.
 */
int lib_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return lib_main(argc, argv);
}
