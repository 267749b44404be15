/*
 * What one timed wake-up costs on this machine, with no work done after it: the floor under
 * any driver that sleeps between evenly paced arrivals.
 *
 *   gcc -O2 -o /tmp/wakecost bakeoff/wakecost.c && /tmp/wakecost MODE RATE SECONDS
 *
 * MODE is "sleep" (clock_nanosleep to an absolute time) or "epoll" (a timerfd in an epoll
 * set, re-armed for each arrival, as Netty's epoll event loop waits). Prints one line:
 * wakes, CPU per wake (user, kernel) in µs, context switches per wake, and how late the
 * wakes were (mean and max, µs).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct timespec as_timespec(long long ns) {
    struct timespec t = { ns / 1000000000LL, ns % 1000000000LL };
    return t;
}

static double micros(struct timeval t) {
    return t.tv_sec * 1e6 + t.tv_usec;
}

/* Waits until `due` with the chosen mechanism; epoll_fd and timer_fd are used by "epoll" only. */
static void wait_until(int use_epoll, int epoll_fd, int timer_fd, long long due) {
    if (!use_epoll) {
        struct timespec t = as_timespec(due);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0) {}
        return;
    }
    struct itimerspec spec = { { 0, 0 }, as_timespec(due) };
    timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &spec, NULL);
    struct epoll_event event;
    while (epoll_wait(epoll_fd, &event, 1, -1) < 1) {}
    unsigned long long expirations;
    if (read(timer_fd, &expirations, sizeof expirations) < 0) perror("read timerfd");
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "sleep") != 0 && strcmp(argv[1], "epoll") != 0)
        || atof(argv[2]) <= 0 || atof(argv[3]) <= 0) {
        fprintf(stderr, "usage: wakecost sleep|epoll RATE_PER_S SECONDS (both above 0)\n");
        return 2;
    }
    int use_epoll = strcmp(argv[1], "epoll") == 0;
    double spacing_ns = 1e9 / atof(argv[2]);
    long long end = now_ns() + (long long) (atof(argv[3]) * 1e9);

    int epoll_fd = -1, timer_fd = -1;
    if (use_epoll) {
        epoll_fd = epoll_create1(0);
        timer_fd = timerfd_create(CLOCK_MONOTONIC, 0);
        struct epoll_event event = { .events = EPOLLIN, .data.fd = timer_fd };
        epoll_ctl(epoll_fd, EPOLL_CTL_ADD, timer_fd, &event);
    }

    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    long long start = now_ns(), wakes = 0;
    double late_sum = 0, late_max = 0;
    for (;;) {
        long long due = start + (long long) ((wakes + 1) * spacing_ns);
        if (due >= end) break;
        wait_until(use_epoll, epoll_fd, timer_fd, due);
        double late = (now_ns() - due) / 1e3;
        late_sum += late;
        if (late > late_max) late_max = late;
        wakes++;
    }
    getrusage(RUSAGE_SELF, &after);

    double user = micros(after.ru_utime) - micros(before.ru_utime);
    double kernel = micros(after.ru_stime) - micros(before.ru_stime);
    long switches = (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw);
    printf("mode=%s rate=%s/s wakes=%lld cpu_us_per_wake=%.1f (user %.1f, kernel %.1f) switches_per_wake=%.2f"
           " late_us mean=%.1f max=%.1f\n",
           argv[1], argv[2], wakes, (user + kernel) / wakes, user / wakes, kernel / wakes,
           (double) switches / wakes, late_sum / wakes, late_max);
    return 0;
}
