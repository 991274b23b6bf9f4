/*
 * here.c - the MPI layer's thread-local block (here.h).
 */
#include "here.h"

__thread struct pmpi_here pmpi_here __attribute__((tls_model("initial-exec"))) = {
	.graph = { .last_site = -1 },
};
