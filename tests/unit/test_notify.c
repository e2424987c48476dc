/* SPDX-License-Identifier: MIT */
/* test_notify.c - the sd_notify datagram (cli/notify.h) against real AF_UNIX
 * datagram sockets made here, as systemd makes its own: a path and an
 * abstract name receive the state whole; no socket named is nothing to do;
 * a name too long for a socket address, one neither a path nor '@', a path
 * that is no socket and an abstract name nobody bound are refused with a
 * message, never a crash. */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/notify.h"

/* A datagram socket bound to name (a path, or '@' for an abstract name, as
 * $NOTIFY_SOCKET writes it). */
static int listener(const char *name)
{
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    size_t n = strlen(name);
    assert_true(n + (name[0] != '@') <= sizeof sa.sun_path);
    memcpy(sa.sun_path, name, n);
    if (name[0] == '@')
        sa.sun_path[0] = '\0';
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (name[0] != '@'));
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, len), 0);
    return fd;
}

/* The one datagram waiting on fd, as a string. */
static void received(int fd, const char *want)
{
    char buf[512];
    ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
    assert_true(n >= 0);
    buf[n] = '\0';
    assert_string_equal(buf, want);
}

static void test_nothing_to_tell_without_a_socket(void **state)
{
    (void)state;
    char err[200] = "";
    assert_int_equal(cli_notify_send(NULL, "READY=1", err, sizeof err), 1);
    assert_int_equal(cli_notify_send("", "READY=1", err, sizeof err), 1);
    assert_string_equal(err, "");
}

static void test_a_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/figaro-notify-XXXXXX", path[64], err[200];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/notify", dir);
    int fd = listener(path);
    assert_int_equal(cli_notify_send(path, "READY=1\nSTATUS=listening on port 8080", err,
                                     sizeof err), 0);
    received(fd, "READY=1\nSTATUS=listening on port 8080");
    assert_int_equal(cli_notify_send(path, "STOPPING=1", err, sizeof err), 0);
    received(fd, "STOPPING=1");
    close(fd);
    unlink(path);
    /* the socket gone: refused, and said so */
    assert_int_equal(cli_notify_send(path, "STOPPING=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot tell the service manager"));
    assert_non_null(strstr(err, path));
    rmdir(dir);
}

static void test_an_abstract_name(void **state)
{
    (void)state;
    char name[64], err[200];
    snprintf(name, sizeof name, "@figaro-notify-test-%ld", (long)getpid());
    int fd = listener(name);
    assert_int_equal(cli_notify_send(name, "READY=1", err, sizeof err), 0);
    received(fd, "READY=1");
    close(fd);
    /* nobody bound to it now: refused */
    assert_int_equal(cli_notify_send(name, "READY=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot tell the service manager"));
}

/* The longest names that fit: a path of 107 bytes and its NUL, an abstract
 * name of '@' and 107 bytes (108 in sun_path, no NUL needed). */
static void test_the_longest_names(void **state)
{
    (void)state;
    struct sockaddr_un sa;
    const size_t max = sizeof sa.sun_path;
    char name[sizeof sa.sun_path + 1], dir[] = "/tmp/figaro-notify-XXXXXX", err[200];
    snprintf(name, sizeof name, "@figaro-notify-test-%ld-", (long)getpid());
    memset(name + strlen(name), 'a', max - strlen(name));
    name[max] = '\0';
    int fd = listener(name);
    assert_int_equal(cli_notify_send(name, "READY=1", err, sizeof err), 0);
    received(fd, "READY=1");
    close(fd);

    assert_non_null(mkdtemp(dir));
    snprintf(name, sizeof name, "%s/", dir);
    memset(name + strlen(name), 'p', max - 1 - strlen(name));
    name[max - 1] = '\0';
    fd = listener(name);
    assert_int_equal(cli_notify_send(name, "STOPPING=1", err, sizeof err), 0);
    received(fd, "STOPPING=1");
    close(fd);
    unlink(name);
    rmdir(dir);
}

static void test_too_long_or_not_a_socket(void **state)
{
    (void)state;
    struct sockaddr_un sa;
    char name[300], err[200];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    name[0] = '/';
    assert_int_equal(cli_notify_send(name, "READY=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "more than a socket address holds"));
    /* a path exactly as long as sun_path leaves no room for its NUL */
    name[sizeof sa.sun_path] = '\0';
    assert_int_equal(cli_notify_send(name, "READY=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "more than a socket address holds"));
    /* an abstract name one byte longer than sun_path */
    name[0] = '@';
    name[sizeof sa.sun_path] = 'a';
    name[sizeof sa.sun_path + 1] = '\0';
    assert_int_equal(cli_notify_send(name, "READY=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "more than a socket address holds"));
    /* neither a path nor an abstract name */
    assert_int_equal(cli_notify_send("run/notify", "READY=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "neither a path nor an abstract name"));
    /* a file that is no socket */
    char dir[] = "/tmp/figaro-notify-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/plain", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(cli_notify_send(path, "READY=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot tell the service manager"));
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_to_tell_without_a_socket),
        cmocka_unit_test(test_a_path),
        cmocka_unit_test(test_an_abstract_name),
        cmocka_unit_test(test_the_longest_names),
        cmocka_unit_test(test_too_long_or_not_a_socket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
