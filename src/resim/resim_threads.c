/* resim_threads.c: one task run on several threads at once. */
#include "resim/resim_int.h"

#include <pthread.h>
#include <unistd.h>

#include "util/mem.h"

uint32_t resim_workers(uint32_t threads)
{
    if (threads)
        return threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (uint32_t)cores : 1;
}

typedef struct resim_thread {
    resim_task *task;
    void *arg;
    uint32_t worker;
} resim_thread;

static void *thread_main(void *p)
{
    resim_thread *t = p;
    t->task(t->arg, t->worker);
    return NULL;
}

uint32_t resim_parallel(uint32_t n, resim_task *task, void *arg)
{
    pthread_t *tid = n > 1 ? mem_alloc(n * sizeof *tid) : NULL;
    resim_thread *th = n > 1 ? mem_alloc(n * sizeof *th) : NULL;
    uint32_t started = 1;
    for (; tid && th && started < n; started++) {
        th[started] = (resim_thread){task, arg, started};
        if (pthread_create(&tid[started], NULL, thread_main, &th[started]) != 0)
            break;
    }
    task(arg, 0);
    for (uint32_t k = 1; k < started; k++)
        pthread_join(tid[k], NULL);
    mem_free(tid);
    mem_free(th);
    return started;
}
