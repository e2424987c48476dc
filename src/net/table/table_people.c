/* SPDX-License-Identifier: MIT */
/* table_people.c - a table and the people who sit at it (table.h,
 * "people"): a seat taken back by its person, a person forgotten, whether
 * the table's games may be rated. A game's end as its people keep it is
 * table_result.c's. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "host/util.h"
#include "net/table/rated.h"
#include "net/table/table.h"
#include "net/table/table_internal.h"

bool fig_table_may_rate(const fig_table_t *t) { return fig_rated_table(&t->row); }

const char *fig_table_seat_person(const fig_table_t *t, int s)
{
    return s >= 0 && s < t->row.players ? t->row.seats[s].person : "";
}

fig_proto_code_t fig_table_resume_person(fig_table_t *t, void *p, const fig_tr_t *tr,
                                         const char *person, const fig_table_since_t *since,
                                         fig_msg_t *msg)
{
    int seat = -1;
    for (int s = 0; s < t->row.players && person[0]; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_PERSON &&
            strcmp(t->row.seats[s].person, person) == 0)
            seat = s;
    if (seat < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you hold no seat at table %s"), t->row.code);
        return FIG_PC_NOT_YOUR_SEAT;
    }
    return fig_tb_resume_seat(t, p, tr, seat, since, msg);
}

/* What the table's log tells of seat s under its old name (its news, its
 * chat lines), told under the new one from now on: a snapshot's story and
 * a catch-up name the person no more. */
static void forget_told(fig_table_t *t, int s, const char *was, const char *now)
{
    for (int i = 0; i < FIG_TABLE_LOG; i++) {
        logent_t *e = &t->log[i];
        if (e->seat == s && strcmp(e->name, was) == 0)
            snprintf(e->name, sizeof e->name, "%s", now);
    }
}

void fig_table_forget_person(fig_table_t *t, const char *person)
{
    if (!person[0])
        return;
    for (int s = 0; s < t->row.players; s++) {
        fig_db_seat_t *x = &t->row.seats[s];
        if (strcmp(x->person, person) != 0)
            continue;
        fig_tb_seat_unlink(t, s);   /* their seat, or the open seat they left */
        if (x->kind != FIG_DB_SEAT_PERSON)
            continue;
        /* "Anonymous", numbered as join numbers a name another seat has. */
        name_t names[FIG_MAX_PLAYERS];
        fig_tb_seat_names(t, names);
        char want[FIG_PERSON_NAME_BYTES + 1] = "Anonymous";
        for (int k = 2; k < 100; k++) {
            bool clash = false;
            for (int o = 0; o < t->row.players; o++)
                clash |= o != s && strcasecmp(names[o], want) == 0;
            if (!clash)
                break;
            snprintf(want, sizeof want, "Anonymous%d", k);
        }
        forget_told(t, s, x->name, want);
        snprintf(x->name, sizeof x->name, "%s", want);
        t->renames |= 1u << s;
    }
    fig_tb_renames(t);   /* stored, then told; at once if the table is free */
}
