/*
 * analyses-lock.c - the analyses' lock (analyses-lock.h).
 */
#include "analyses-lock.h"

struct rt_mutex pmpi_analyses_mutex;
