/*
 * datatypes.c - the size and layout of a call's datatype, which every
 * wrapper that moves data needs, several times a call.  Asking MPI costs
 * three calls; the predefined datatypes, which a program cannot free, are
 * asked once at MPI_Init and then found by their handle in a small hash
 * table (open addressing: a probe or two), with the groups of MPI's
 * predefined operators each belongs to (the fused allreduce asks).
 */
#include "call.h"
#include "datatypes.h"

#define NAMED 128		/* slots, a power of 2, at least twice the types */

/* The groups of predefined datatypes that MPI's predefined operators are
 * defined on (MPI 4.0, 6.9.2); the address and offset types go with the
 * Fortran integers, which take all but the logical operators. */
enum { C_INT = 1, F_INT = 2, FLOATING = 4, LOGICAL = 8, COMPLEX = 16, BYTE = 32, PAIR = 64 };

/* Predefined datatypes whose elements lie end to end (extent == size,
 * no gap before or inside): filled before the wrappers are active, read
 * only after. */
static struct pmpi_named named[NAMED];

static unsigned named_home(MPI_Datatype type)
{
	return (unsigned)((PMPI_HKEY(type) * 0x9e3779b97f4a7c15ull) >> 57) & (NAMED - 1);
}


const struct pmpi_named *pmpi_named_probe(MPI_Datatype type)
{
	for (unsigned k = named_home(type); named[k].size; k = (k + 1) & (NAMED - 1))
		if (named[k].type == type)
			return pmpi_here.named_last = &named[k];
	return NULL;
}

static void add_named(MPI_Datatype type, int size, unsigned groups)
{
	unsigned k = named_home(type);

	while (named[k].size)
		k = (k + 1) & (NAMED - 1);
	named[k] = (struct pmpi_named){ type, size, groups };
}

/*
 * Whether type lists its bytes in memory order: a predefined datatype, or
 * a contiguous run or duplicate of one such.  Another derived datatype as
 * compact may list them in any order (an indexed one with displacements
 * {1, 0} swaps two elements), and a copy in memory order would then move
 * them to the wrong places; it goes through MPI_Pack or a struct instead.
 */
static bool in_memory_order(MPI_Datatype type)
{
	int ni, na, nd, comb, n[1];
	MPI_Aint a[1];
	MPI_Datatype inner;
	bool ok;

	if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &comb) != MPI_SUCCESS)
		return false;
	if (comb == MPI_COMBINER_NAMED)
		return true;
	if ((comb != MPI_COMBINER_CONTIGUOUS && comb != MPI_COMBINER_DUP) || ni > 1 || na || nd != 1 ||
	    PMPI_Type_get_contents(type, 1, 0, 1, n, a, &inner) != MPI_SUCCESS)
		return false;
	ok = in_memory_order(inner);
	/* the contents' derived datatypes are copies of ours to free */
	if (PMPI_Type_get_envelope(inner, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
	    comb != MPI_COMBINER_NAMED)
		PMPI_Type_free(&inner);
	return ok;
}

/* Whether count elements of type lie in one piece, in memory order, asked
 * of MPI. */
static bool ask_contiguous(MPI_Datatype type, int count, int64_t size, MPI_Aint *at)
{
	MPI_Aint lb, extent, textent;

	return in_memory_order(type) && PMPI_Type_get_extent(type, &lb, &extent) == MPI_SUCCESS &&
	       PMPI_Type_get_true_extent(type, at, &textent) == MPI_SUCCESS &&
	       textent == size && (count <= 1 || extent == size);
}

void pmpi_types_start(void)
{
	/* MPI_DATATYPE_NULL stands for a type this MPI lacks (MPICH without
	 * Fortran) */
	const struct {
		MPI_Datatype type;
		unsigned groups;
	} all[] = {
		{ MPI_BYTE, BYTE }, { MPI_CHAR, 0 }, { MPI_INT, C_INT }, { MPI_DOUBLE, FLOATING },
		{ MPI_DOUBLE_PRECISION, FLOATING }, { MPI_FLOAT, FLOATING }, { MPI_LONG, C_INT },
		{ MPI_UNSIGNED, C_INT }, { MPI_UNSIGNED_LONG, C_INT }, { MPI_LONG_LONG, C_INT },
		{ MPI_UNSIGNED_LONG_LONG, C_INT }, { MPI_INTEGER, F_INT }, { MPI_REAL, FLOATING },
		{ MPI_UNSIGNED_CHAR, C_INT }, { MPI_SIGNED_CHAR, C_INT }, { MPI_SHORT, C_INT },
		{ MPI_UNSIGNED_SHORT, C_INT }, { MPI_INT8_T, C_INT }, { MPI_INT16_T, C_INT },
		{ MPI_INT32_T, C_INT }, { MPI_INT64_T, C_INT }, { MPI_UINT8_T, C_INT },
		{ MPI_UINT16_T, C_INT }, { MPI_UINT32_T, C_INT }, { MPI_UINT64_T, C_INT },
		{ MPI_C_BOOL, LOGICAL }, { MPI_LONG_DOUBLE, FLOATING }, { MPI_PACKED, 0 },
		{ MPI_AINT, F_INT }, { MPI_OFFSET, F_INT }, { MPI_COUNT, F_INT }, { MPI_CHARACTER, 0 },
		{ MPI_LOGICAL, LOGICAL }, { MPI_C_FLOAT_COMPLEX, COMPLEX },
		{ MPI_C_DOUBLE_COMPLEX, COMPLEX }, { MPI_DOUBLE_COMPLEX, COMPLEX }, { MPI_2INT, PAIR },
		{ MPI_FLOAT_INT, PAIR }, { MPI_DOUBLE_INT, PAIR }, { MPI_LONG_INT, PAIR },
		{ MPI_SHORT_INT, PAIR }, { MPI_2REAL, PAIR }, { MPI_2DOUBLE_PRECISION, PAIR },
		{ MPI_2INTEGER, PAIR },
	};
	_Static_assert(2 * sizeof(all) / sizeof(all[0]) <= NAMED, "NAMED too small");

	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		MPI_Aint at;
		int size;

		if (all[i].type != MPI_DATATYPE_NULL && !pmpi_named_find(all[i].type) &&
		    PMPI_Type_size(all[i].type, &size) == MPI_SUCCESS && size > 0 &&
		    ask_contiguous(all[i].type, 2, size, &at) && !at)
			add_named(all[i].type, size, all[i].groups);
	}
}

int64_t pmpi_type_asked_size(MPI_Datatype type)
{
	MPI_Count size;

	return type != MPI_DATATYPE_NULL && PMPI_Type_size_x(type, &size) == MPI_SUCCESS &&
	       size != MPI_UNDEFINED ? (int64_t)size : -1;
}

int64_t pmpi_type_named_size(MPI_Datatype type)
{
	const struct pmpi_named *n = pmpi_named_find(type);

	return n ? n->size : 0;
}

/* Out of line, as what it asks MPI costs more than a call: the calls
 * that inline their whole call (mpi-api.def's hot) keep the table's way. */
__attribute__((noinline))
int64_t pmpi_type_layout_asked(MPI_Datatype type, int count, bool *contig, MPI_Aint *at)
{
	int64_t size = pmpi_type_asked_size(type);

	*contig = size >= 0 && ask_contiguous(type, count, size, at);
	return size;
}

/* The groups op is defined on; 0 for an operator of the program's. */
static unsigned op_groups(MPI_Op op)
{
	if (op == MPI_MAX || op == MPI_MIN)
		return C_INT | F_INT | FLOATING;
	if (op == MPI_SUM || op == MPI_PROD)
		return C_INT | F_INT | FLOATING | COMPLEX;
	if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
		return C_INT | LOGICAL;
	if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
		return C_INT | F_INT | BYTE;
	if (op == MPI_MAXLOC || op == MPI_MINLOC)
		return PAIR;
	return 0;
}

bool pmpi_op_defined_on(MPI_Op op, MPI_Datatype type)
{
	const struct pmpi_named *n = pmpi_named_find(type);

	return n && (n->groups & op_groups(op));
}
