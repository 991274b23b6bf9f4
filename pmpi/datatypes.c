/*
 * datatypes.c - the size and layout of a call's datatype, which every
 * wrapper that moves data needs, several times a call.  Asking MPI costs
 * three calls; the predefined datatypes, which a program cannot free, are
 * asked once at MPI_Init and then found by their handle in a small hash
 * table (open addressing: a probe or two).
 */
#include "pmpi.h"

#define NAMED 128		/* slots, a power of 2, at least twice the types */

struct named {
	MPI_Datatype type;
	int size;		/* 0: a free slot */
};

/* Predefined datatypes whose elements lie end to end (extent == size,
 * no gap before or inside): filled before the wrappers are active, read
 * only after. */
static struct named named[NAMED];

static unsigned named_home(MPI_Datatype type)
{
	return (unsigned)((PMPI_HKEY(type) * 0x9e3779b97f4a7c15ull) >> 57) & (NAMED - 1);
}

static const struct named *find_named(MPI_Datatype type)
{
	for (unsigned k = named_home(type); named[k].size; k = (k + 1) & (NAMED - 1))
		if (named[k].type == type)
			return &named[k];
	return NULL;
}

static void add_named(MPI_Datatype type, int size)
{
	unsigned k = named_home(type);

	while (named[k].size)
		k = (k + 1) & (NAMED - 1);
	named[k] = (struct named){ type, size };
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
static bool ask_contiguous(MPI_Datatype type, int count, int size, MPI_Aint *at)
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
	const MPI_Datatype all[] = {
		MPI_BYTE, MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_DOUBLE_PRECISION, MPI_FLOAT,
		MPI_LONG, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG,
		MPI_INTEGER, MPI_REAL, MPI_UNSIGNED_CHAR, MPI_SIGNED_CHAR, MPI_SHORT,
		MPI_UNSIGNED_SHORT, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T,
		MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_C_BOOL, MPI_LONG_DOUBLE, MPI_PACKED,
		MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_CHARACTER, MPI_LOGICAL, MPI_C_FLOAT_COMPLEX,
		MPI_C_DOUBLE_COMPLEX, MPI_DOUBLE_COMPLEX,
	};
	_Static_assert(2 * sizeof(all) / sizeof(all[0]) <= NAMED, "NAMED too small");

	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		MPI_Aint at;
		int size;

		if (all[i] != MPI_DATATYPE_NULL && !find_named(all[i]) &&
		    PMPI_Type_size(all[i], &size) == MPI_SUCCESS && size > 0 &&
		    ask_contiguous(all[i], 2, size, &at) && !at)
			add_named(all[i], size);
	}
}

static int ask_size(MPI_Datatype type)
{
	int size;

	return type != MPI_DATATYPE_NULL && PMPI_Type_size(type, &size) == MPI_SUCCESS ? size : -1;
}

int pmpi_type_size(MPI_Datatype type)
{
	const struct named *n = find_named(type);

	return n ? n->size : ask_size(type);
}

int pmpi_type_layout(MPI_Datatype type, int count, bool *contig, MPI_Aint *at)
{
	const struct named *n = find_named(type);
	int size;

	if (n) {
		*contig = true;
		*at = 0;
		return n->size;
	}
	size = ask_size(type);
	*contig = size >= 0 && ask_contiguous(type, count, size, at);
	return size;
}
