/*
 * lazy-libs.h - libpfm4 and PAPI, opened when an event first needs them
 * (lazy-libs.c).  Their functions are called through the pointers
 * sym_<name>, valid once lazy_pfm_open or lazy_papi_open returned 0.
 */
#ifndef CPPERF_LAZY_LIBS_H
#define CPPERF_LAZY_LIBS_H

#include <perfmon/pfmlib_perf_event.h>
#include <stddef.h>
#if HAVE_PAPI
#include <papi.h>
#endif

/* Every function of each library that cpperf calls. */
#define LAZY_PFM_FUNCS(X) \
	X(pfm_initialize) X(pfm_strerror) X(pfm_get_os_event_encoding) \
	X(pfm_get_pmu_info) X(pfm_get_event_next) X(pfm_get_event_info)

#define LAZY_PAPI_FUNCS(X) \
	X(PAPI_library_init) X(PAPI_thread_init) X(PAPI_strerror) \
	X(PAPI_num_components) X(PAPI_get_component_info) X(PAPI_get_component_index) \
	X(PAPI_disable_component) X(PAPI_disable_component_by_name) \
	X(PAPI_get_hardware_info) X(PAPI_event_name_to_code) X(PAPI_get_event_component) \
	X(PAPI_create_eventset) X(PAPI_add_event) X(PAPI_overflow) \
	X(PAPI_get_overflow_event_index) X(PAPI_start) X(PAPI_stop) \
	X(PAPI_cleanup_eventset) X(PAPI_destroy_eventset) \
	X(PAPI_register_thread) X(PAPI_unregister_thread)

#define LAZY_DECLARE(f) extern __typeof__(f) *sym_##f;
LAZY_PFM_FUNCS(LAZY_DECLARE)
#if HAVE_PAPI
LAZY_PAPI_FUNCS(LAZY_DECLARE)
#endif

/* Open libpfm4 (once) and find its functions; 0, or -1 with a message. */
int lazy_pfm_open(char *err, size_t errlen);

/* The same for PAPI. */
int lazy_papi_open(char *err, size_t errlen);

#endif
