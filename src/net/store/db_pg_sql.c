/* SPDX-License-Identifier: MIT */
/* db_pg_sql.c - the SQL of the PostgreSQL back end (db_pg_sql.h): its
 * prepared statements, its schema and the upgrades, as text; db_pg.c sends
 * them. */
#include "net/store/db_pg_sql.h"

/* A lease's end: $n milliseconds from now (the database's clock, which
 * every server shares: the servers' own clocks never matter). */
#define UNTIL(n) "clock_timestamp() + $" #n " * interval '1 millisecond'"
/* Table $1's row while server $2 holds a live lease on it, locked until
 * the transaction's end (the fence). */
#define FENCE_ROW                                                                             \
    "FROM tables WHERE code = $1 AND owner = $2 AND lease_until > clock_timestamp() FOR SHARE"
/* At most $3 tables, this server's own first (a restart), then the oldest. */
#define TAKE(mine)                                                                            \
    "UPDATE tables SET owner = $1, lease_until = " UNTIL(2) " WHERE code IN (SELECT code "   \
    "FROM tables WHERE owner IS NULL OR lease_until < clock_timestamp()" mine " ORDER BY "   \
    "owner IS NOT DISTINCT FROM $1 DESC, created, n LIMIT $3 FOR UPDATE SKIP LOCKED) "      \
    "RETURNING code"

const char *const fig_pg_sql[PGS_COUNT] = {
    [PGS_TABLE] = "INSERT INTO tables (code, players, move_seconds, open, fill, seed, created, "
                  "hints, owner, lease_until, listed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
                  UNTIL(10) ", $11)",
    /* A seat's person is stored only while that person is (forgotten: none). */
    [PGS_SEAT] = "INSERT INTO seats (code, seat, kind, what, name, token_hash, rematch, person) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT id FROM people WHERE id = $8)) "
                 "ON CONFLICT (code, seat) DO UPDATE "
                 "SET kind = excluded.kind, what = excluded.what, name = excluded.name, "
                 "token_hash = excluded.token_hash, rematch = excluded.rematch, "
                 "person = excluded.person",
    [PGS_GAME] = "INSERT INTO games (code, game, players, removed, king, roads, seed, ev) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    /* A new game: who left an open seat in the one before is no leaver of it. */
    [PGS_LEFT_GONE] = "UPDATE seats SET person = NULL WHERE code = $1 AND kind = 'open' "
                      "AND person IS NOT NULL",
    [PGS_ACTION] = "INSERT INTO actions (code, game, idx, seat, action, ev) "
                   "VALUES ($1, $2, $3, $4, $5, $6)",
    [PGS_GET_GAME] = "SELECT players, removed, king, roads, seed, ev FROM games "
                     "WHERE code = $1 AND game = $2",
    [PGS_GET_ACTIONS] = "SELECT idx, seat, action, ev FROM actions WHERE code = $1 AND game = $2 "
                        "ORDER BY idx",
    [PGS_TABLES] = "SELECT t.code, players, move_seconds, open, fill, seed, created, "
                   "COALESCE(e.hw, 0), hints, listed FROM tables t LEFT JOIN events e "
                   "ON e.code = t.code WHERE t.code = ANY ($1::text[]) ORDER BY created, t.n",
    [PGS_SEATS] = "SELECT seat, kind, what, name, token_hash, rematch, COALESCE(person, '') "
                  "FROM seats WHERE code = $1 ORDER BY seat",
    [PGS_LAST_GAME] = "SELECT COALESCE(MAX(game), 0) FROM games WHERE code = $1",
    [PGS_DEL_ACTIONS] = "DELETE FROM actions WHERE code = $1",
    [PGS_DEL_GAMES] = "DELETE FROM games WHERE code = $1",
    [PGS_DEL_SEATS] = "DELETE FROM seats WHERE code = $1",
    [PGS_DEL_EVENTS] = "DELETE FROM events WHERE code = $1",
    [PGS_DEL_TABLE] = "DELETE FROM tables WHERE code = $1",
    [PGS_EVENTS] = "INSERT INTO events (code, hw) VALUES ($1, $2) "
                   "ON CONFLICT (code) DO UPDATE SET hw = GREATEST(events.hw, excluded.hw)",
    /* Computed once: a second one (two askers at once) leaves the first;
     * a game deleted meanwhile takes none. */
    [PGS_REVIEW] = "INSERT INTO reviews (code, game, seat, review) SELECT $1, $2, $3, $4 "
                   "WHERE EXISTS (SELECT 1 FROM games WHERE code = $1 AND game = $2) "
                   "ON CONFLICT (code, game, seat) DO NOTHING",
    [PGS_GET_REVIEW] = "SELECT review FROM reviews WHERE code = $1 AND game = $2 AND seat = $3",
    [PGS_DEL_REVIEWS] = "DELETE FROM reviews WHERE code = $1",
    /* The fence: the row stays this server's (another's take waits) until
     * the transaction ends. */
    [PGS_FENCE] = "SELECT 1 " FENCE_ROW,
    [PGS_RENEW] = "UPDATE tables SET lease_until = " UNTIL(2) " WHERE owner = $1 "
                  "AND lease_until > clock_timestamp() AND code = ANY ($3::text[]) RETURNING code",
    [PGS_TAKE] = TAKE(""),
    [PGS_TAKE_MINE] = TAKE(" OR owner = $1"),
    [PGS_CLAIM] = "UPDATE tables SET owner = $1, lease_until = " UNTIL(2) " WHERE code = $3 "
                  "AND (owner IS NULL OR owner = $1 OR lease_until < clock_timestamp()) "
                  "RETURNING code",
    /* The fence as an error (division by zero) when the row is not this
     * server's: in a pipeline (apply), a fenced batch aborts the group. */
    [PGS_FENCE_OR_FAIL] = "SELECT 1 / count(*) FROM (SELECT 1 " FENCE_ROW ") f",
    /* Who holds a live lease on it ("" nobody: its server is gone). */
    [PGS_OWNER] = "SELECT CASE WHEN lease_until > clock_timestamp() THEN owner ELSE '' END "
                  "FROM tables WHERE code = $1",
};

/* Version 3, whole. */
const char fig_pg_schema[] =
    "CREATE TABLE tables (code text PRIMARY KEY, players int NOT NULL, "
    "  move_seconds int NOT NULL, open boolean NOT NULL, fill text NOT NULL, "
    "  seed bigint NOT NULL, created bigint NOT NULL, hints boolean NOT NULL DEFAULT false, "
    "  n bigint GENERATED ALWAYS AS IDENTITY, owner text, lease_until timestamptz);"
    "CREATE INDEX tables_lease ON tables (lease_until);"
    "CREATE TABLE seats (code text NOT NULL REFERENCES tables (code), seat int NOT NULL, "
    "  kind text NOT NULL, what text NOT NULL, name text NOT NULL, token_hash text NOT NULL, "
    "  rematch int NOT NULL DEFAULT 0, PRIMARY KEY (code, seat));"
    "CREATE TABLE games (code text NOT NULL REFERENCES tables (code), game int NOT NULL, "
    "  players int NOT NULL, removed int NOT NULL, king int NOT NULL, roads text NOT NULL, "
    "  seed bigint NOT NULL, ev bigint NOT NULL, PRIMARY KEY (code, game));"
    "CREATE TABLE actions (code text NOT NULL, game int NOT NULL, idx int NOT NULL, "
    "  seat int NOT NULL, action text NOT NULL, ev bigint NOT NULL, "
    "  PRIMARY KEY (code, game, idx), FOREIGN KEY (code, game) REFERENCES games (code, game));"
    "CREATE TABLE events (code text PRIMARY KEY REFERENCES tables (code), hw bigint NOT NULL);"
    "INSERT INTO figaro_schema (version) VALUES (3);";

/* upgrade[v]: from version v to v + 1 (v >= FIG_PG_FIRST_VERSION), each ending by
 * setting figaro_schema's version (UPDATE figaro_schema SET version = v + 1);
 * a new database is made at FIG_PG_FIRST_VERSION, then brought up the same way. */
const char *const fig_pg_upgrade[FIG_DB_SCHEMA + 1] = {
    /* 3 to 4: the reviews of finished games, none yet. */
    [3] = "CREATE TABLE reviews (code text NOT NULL, game int NOT NULL, seat int NOT NULL, "
          "  review text NOT NULL, PRIMARY KEY (code, game, seat), "
          "  FOREIGN KEY (code, game) REFERENCES games (code, game));"
          "UPDATE figaro_schema SET version = 4;",
    /* 4 to 5: people (none yet), the seats' person (none), the tables'
     * listed option (off: every table made before was invite-only). */
    [4] = "ALTER TABLE tables ADD COLUMN listed boolean NOT NULL DEFAULT false;"
          "ALTER TABLE seats ADD COLUMN person text;"
          "CREATE INDEX seats_person ON seats (person);"
          "CREATE TABLE people (id text PRIMARY KEY, name text NOT NULL, "
          "  mu double precision NOT NULL, sigma double precision NOT NULL, "
          "  rated int NOT NULL DEFAULT 0, hidden boolean NOT NULL DEFAULT false, "
          "  created bigint NOT NULL);"
          "CREATE TABLE person_keys (hash text PRIMARY KEY, "
          "  person text NOT NULL REFERENCES people (id), created bigint NOT NULL);"
          "CREATE INDEX person_keys_person ON person_keys (person);"
          "CREATE TABLE device_codes (hash text PRIMARY KEY, "
          "  person text NOT NULL UNIQUE REFERENCES people (id), expires bigint NOT NULL);"
          "CREATE TABLE records (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
          "  fgn text NOT NULL);"
          "CREATE TABLE played (person text NOT NULL REFERENCES people (id), idx int NOT NULL, "
          "  code text NOT NULL, game int NOT NULL, seat int NOT NULL, players int NOT NULL, "
          "  place int NOT NULL, rated boolean NOT NULL, mu double precision NOT NULL, "
          "  sigma double precision NOT NULL, ended bigint NOT NULL, seats text NOT NULL, "
          "  record bigint NOT NULL REFERENCES records (id), PRIMARY KEY (person, idx));"
          "CREATE INDEX played_record ON played (record);"
          "UPDATE figaro_schema SET version = 5;",
    /* 5 to 6: the log of the people forgotten, empty (those forgotten
     * before are anonymous in storage already). */
    [5] = "CREATE TABLE forgotten (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
          "  person text NOT NULL, at bigint NOT NULL);"
          "UPDATE figaro_schema SET version = 6;",
};

/* The advisory lock of creating and upgrading the schema. */
const char fig_pg_lock[] = "SELECT pg_advisory_xact_lock(hashtext('figaro schema'))";
