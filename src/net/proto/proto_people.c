/* SPDX-License-Identifier: MIT */
/* proto_people.c - the frames that speak of people and ratings (proto.h,
 * docs/protocol.md "People"): a person, a rating after a game, a device
 * code. Built from plain values: a person frame holds a key only when the
 * caller hands one (the new key, to the one connection that gets it). */
#include <stdio.h>

#include "figaro/bot.h"
#include "host/rating.h"
#include "net/proto/proto.h"

void fig_proto_rating_set(json_t *o, double mu, double sigma)
{
    fig_rating_t r = { mu, sigma };
    json_object_set_new(o, "mu", json_real(mu));
    json_object_set_new(o, "sigma", json_real(sigma));
    json_object_set_new(o, "shown", json_real(fig_rating_conservative(r)));
    int below = -1, above = -1;
    fig_rating_between(mu, &below, &above);
    if (below >= 0 && fig_rating_level(below).mu == mu)
        above = below;   /* at a level: [L, L] */
    json_t *b = json_array();
    json_array_append_new(b, json_string(below >= 0 ? fig_bot_level_name(below) : ""));
    json_array_append_new(b, json_string(above >= 0 ? fig_bot_level_name(above) : ""));
    json_object_set_new(o, "between", b);
}

json_t *fig_proto_person(const fig_proto_person_t *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("person"));
    json_object_set_new(o, "id", json_string(p->id));
    json_object_set_new(o, "name", json_string(p->name));
    fig_proto_rating_set(o, p->mu, p->sigma);
    json_object_set_new(o, "rated", json_integer(p->rated));
    json_object_set_new(o, "hidden", json_boolean(p->hidden));
    json_t *seats = json_array();
    for (int i = 0; i < p->nseats && i < FIG_PROTO_PERSON_SEATS; i++) {
        json_t *s = json_object();
        json_object_set_new(s, "table", json_string(p->seats[i].table));
        json_object_set_new(s, "seat", json_integer(p->seats[i].seat));
        json_array_append_new(seats, s);
    }
    json_object_set_new(o, "seats", seats);
    if (p->key)
        json_object_set_new(o, "key", json_string(p->key));
    return o;
}

json_t *fig_proto_rated(const char *table, int game, double mu, double sigma, double mu_before,
                        double sigma_before)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("rated"));
    json_object_set_new(o, "table", json_string(table));
    json_object_set_new(o, "game", json_integer(game));
    fig_proto_rating_set(o, mu, sigma);
    json_t *b = json_object();
    json_object_set_new(b, "mu", json_real(mu_before));
    json_object_set_new(b, "sigma", json_real(sigma_before));
    json_object_set_new(o, "before", b);
    return o;
}

json_t *fig_proto_device_code(const char *code, int expires_s)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("device_code"));
    json_object_set_new(o, "code", json_string(code));
    json_object_set_new(o, "expires_s", json_integer(expires_s));
    return o;
}

json_t *fig_proto_bare(const char *type)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    return o;
}
