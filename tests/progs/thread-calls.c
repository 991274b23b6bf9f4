/*
 * thread-calls.c - MPI_Send and MPI_Recv from 2 threads of each of 2 ranks
 * under MPI_THREAD_MULTIPLE, where the wrappers' analyses take their
 * locks; with "nonblocking", MPI_Isend and MPI_Irecv each completed by
 * MPI_Wait in their place.  "overlap": the threads of each rank are in MPI at once (one
 * waits in MPI_Recv while the other calls MPI_Send), then both make ROUNDS
 * round trips with the other rank at once, each on a tag of its own.  "turns": the threads take turns, round i being thread i % 2's
 * on both ranks, so that one call at a time is in MPI; before its send,
 * rank 0's thread t spins in work_t for (t + 1) x US microseconds of its
 * CPU time: work_0 a third of the path's samples, work_1 two thirds, as
 * long as the path runs through the spins (the other rank, waiting for
 * them, is not late).  Prints "thread-calls MODE multiple" on rank 0 when
 * MPI gave that level, and in "turns" "cpu_share S", the CPU time the
 * spins got over the wall time they took: below 0.9 the host was busy and
 * its delays may have taken the path.
 * Usage: thread-calls overlap|turns ROUNDS US [nonblocking]
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spin-leaf.h"

static int rank, rounds, turns_mode, nonblocking;
static double us;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t moved = PTHREAD_COND_INITIALIZER;
static int turn;	/* the round under way, in "turns" */

static NOINLINE void work_0(double t)
{
	SPIN_CPU(t);
}

static NOINLINE void work_1(double t)
{
	SPIN_CPU(t);
	sink ^= 1;	/* not the same code as work_0 */
}

/* Rank 0's spins: the CPU time they asked for, the wall time they took,
 * thread t's in [t]. */
static double spun_cpu[2], spun_wall[2];

static void spin(int t)
{
	double start = now_us(), want = (t + 1) * us;

	(t ? work_1 : work_0)(want);
	spun_cpu[t] += want;
	spun_wall[t] += now_us() - start;
}

/* An int to or from rank `peer` on tag `tag`. */
static void send_to(int *v, int peer, int tag)
{
	MPI_Request r;

	if (!nonblocking) {
		MPI_Send(v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD);
		return;
	}
	MPI_Isend(v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &r);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void recv_from(int *v, int peer, int tag)
{
	MPI_Request r;

	if (!nonblocking) {
		MPI_Recv(v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		return;
	}
	MPI_Irecv(v, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &r);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* One round trip of thread t with the other rank, on tag t. */
static void round_trip(int t)
{
	int v = t;

	if (rank == 0) {
		if (turns_mode)
			spin(t);
		send_to(&v, 1, t);
		recv_from(&v, 1, t);
	} else {
		recv_from(&v, 0, t);
		send_to(&v, 0, t);
	}
}

/* A call of each thread of the rank inside MPI at once, however the host
 * schedules them: thread 0 waits for a receive from the other rank's
 * thread 1, which sends once it has slept long enough for that, as this
 * rank's thread 1 does. */
static void overlap(int t)
{
	int v = t;

	if (t == 0) {
		recv_from(&v, rank ^ 1, 2);
	} else {
		nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
		send_to(&v, rank ^ 1, 2);
	}
}

static void *thread_main(void *arg)
{
	int t = (int)(long)arg;

	if (!turns_mode)
		overlap(t);
	for (int i = 0; i < rounds; i++) {
		if (!turns_mode) {
			round_trip(t);
			continue;
		}
		pthread_mutex_lock(&lock);
		while (turn % 2 != t)
			pthread_cond_wait(&moved, &lock);
		pthread_mutex_unlock(&lock);
		round_trip(t);
		pthread_mutex_lock(&lock);
		turn++;
		pthread_cond_broadcast(&moved);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	int level;

	if (argc < 4 || argc > 5 || (strcmp(argv[1], "overlap") && strcmp(argv[1], "turns")) ||
	    (argc == 5 && strcmp(argv[4], "nonblocking"))) {
		fprintf(stderr, "usage: thread-calls overlap|turns ROUNDS US [nonblocking]\n");
		return 2;
	}
	turns_mode = !strcmp(argv[1], "turns");
	nonblocking = argc == 5;
	rounds = atoi(argv[2]);
	us = atof(argv[3]);
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &level);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (long t = 0; t < 2; t++)
		pthread_create(&th[t], NULL, thread_main, (void *)t);
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	if (rank == 0) {
		double wall = spun_wall[0] + spun_wall[1];

		printf("thread-calls %s%s\n", argv[1], level == MPI_THREAD_MULTIPLE ? " multiple" : "");
		printf("cpu_share %.2f\n", wall > 0 ? (spun_cpu[0] + spun_cpu[1]) / wall : 1);
	}
	MPI_Finalize();
	return 0;
}
