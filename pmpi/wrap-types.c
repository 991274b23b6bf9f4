/*
 * wrap-types.c - the datatypes that send a header and a large contiguous
 * payload as one message (p2p.c), kept for reuse, and the struct of a
 * header and any other payload, made for one call.  Making and committing
 * a derived datatype costs MPI some thousands of instructions, twice a
 * Sendrecv, where the exchange of a few tens of kilobytes itself takes
 * microseconds; a program's large messages mostly come from a few
 * buffers, and their headers from the same few places (a blocking call's
 * stack, the allocator's recycled blocks).  So each thread keeps its last
 * WRAP_SLOTS types, keyed by where the header and the payload lie and
 * their lengths: a type holds absolute addresses and nothing else (bytes
 * both), so one key always means one layout, whatever was freed or
 * reused in between.  The types are freed when evicted and at
 * MPI_Finalize; MPI keeps a type alive for the operations that still use
 * it.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "wrap-types.h"

#define WRAP_SLOTS 8

struct wrap_entry {
	const void *hdr, *data;
	int hlen, bytes;
	MPI_Datatype type;	/* MPI_DATATYPE_NULL: a free slot */
	uint64_t used;		/* the cache's clock at its last use */
};

/* One thread's types, reached from the list of all threads' so that
 * MPI_Finalize frees them; never freed itself (a thread may exit with
 * types in it). */
struct wrap_cache {
	struct wrap_cache *next;
	uint64_t clock;
	struct wrap_entry e[WRAP_SLOTS];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct wrap_cache *all;
static __thread struct wrap_cache *mine __attribute__((tls_model("initial-exec")));

static struct wrap_cache *my_cache(void)
{
	struct wrap_cache *c = mine;

	if (c)
		return c;
	if (!(c = calloc(1, sizeof(*c))))
		return NULL;
	for (int i = 0; i < WRAP_SLOTS; i++)
		c->e[i].type = MPI_DATATYPE_NULL;
	pthread_mutex_lock(&lock);
	c->next = all;
	all = c;
	pthread_mutex_unlock(&lock);
	return mine = c;
}

int pmpi_wrap_struct(const void *hdr, int hlen, const void *buf, int count, MPI_Datatype type,
		     MPI_Datatype *out)
{
	int len[2] = { hlen, count };
	MPI_Datatype types[2] = { MPI_BYTE, type };
	MPI_Aint at[2];
	int rc;

	PMPI_Get_address(hdr, &at[0]);
	PMPI_Get_address(buf, &at[1]);
	rc = PMPI_Type_create_struct(2, len, at, types, out);
	if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(out)) != MPI_SUCCESS)
		PMPI_Type_free(out);
	return rc;
}

/* The slot to fill: a free one, else the least recently used, whose type
 * is freed. */
static struct wrap_entry *victim(struct wrap_cache *c)
{
	struct wrap_entry *v = &c->e[0];

	for (int i = 0; i < WRAP_SLOTS && v->type != MPI_DATATYPE_NULL; i++)
		if (c->e[i].type == MPI_DATATYPE_NULL || c->e[i].used < v->used)
			v = &c->e[i];
	if (v->type != MPI_DATATYPE_NULL)
		PMPI_Type_free(&v->type);
	v->type = MPI_DATATYPE_NULL;
	return v;
}

int pmpi_wrap_type(const void *hdr, int hlen, const void *data, int bytes, MPI_Datatype *type,
		   bool *owned)
{
	struct wrap_cache *c = my_cache();
	struct wrap_entry *v;
	int rc;

	*owned = !c;
	if (!c)		/* memory short: a type for this call alone */
		return pmpi_wrap_struct(hdr, hlen, data, bytes, MPI_BYTE, type);
	c->clock++;
	for (int i = 0; i < WRAP_SLOTS; i++) {
		v = &c->e[i];
		if (v->type != MPI_DATATYPE_NULL && v->hdr == hdr && v->data == data &&
		    v->hlen == hlen && v->bytes == bytes) {
			v->used = c->clock;
			*type = v->type;
			return MPI_SUCCESS;
		}
	}
	v = victim(c);
	rc = pmpi_wrap_struct(hdr, hlen, data, bytes, MPI_BYTE, &v->type);
	if (rc != MPI_SUCCESS) {
		v->type = MPI_DATATYPE_NULL;
		return rc;
	}
	*v = (struct wrap_entry){ hdr, data, hlen, bytes, v->type, c->clock };
	*type = v->type;
	return MPI_SUCCESS;
}

void pmpi_wrap_types_release(void)
{
	pthread_mutex_lock(&lock);
	for (struct wrap_cache *c = all; c; c = c->next)
		for (int i = 0; i < WRAP_SLOTS; i++)
			if (c->e[i].type != MPI_DATATYPE_NULL)
				PMPI_Type_free(&c->e[i].type);
	pthread_mutex_unlock(&lock);
}
