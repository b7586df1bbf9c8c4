/* Plays one whole game through gloam's C library, answering every request with a random
 * legal option, and prints the result.
 *
 *   cc -I capi/include capi/examples/play.c target/debug/libgloam_capi.a -lpthread -ldl -lm
 *   ./a.out cards harrowdeep 7
 *
 * It speaks the JSON-lines protocol of docs/protocol.md. To stay a single file it reads the
 * replies with a few string scans that rely on the reply layout the protocol fixes (the
 * order of a pending request's fields); a real host would use a JSON library. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gloam.h"

static uint64_t rng_state = 1;

static size_t pick(size_t bound) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return bound == 0 ? 0 : (size_t)((rng_state >> 33) % bound);
}

/* The end of the JSON value (object, array, string or scalar) that starts at `p`. */
static const char *skip_value(const char *p) {
    int depth = 0;
    int in_string = 0;
    for (; *p; p++) {
        if (in_string) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == '"') {
                in_string = 0;
                if (depth == 0) return p + 1;
            }
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            if (depth == 0) return p;
            if (--depth == 0) return p + 1;
        } else if (*p == ',' && depth == 0) {
            return p;
        }
    }
    return p;
}

/* Counts the elements of the array whose '[' is at `p`. */
static size_t count_elements(const char *p) {
    size_t n = 0;
    p++;
    while (*p && *p != ']') {
        p = skip_value(p);
        n++;
        if (*p == ',') p++;
    }
    return n;
}

/* Whether a reply is an error reply: `{"id":N,"error":...}` (the ids here are numbers). */
static int is_error(const char *reply) {
    return strncmp(reply + strcspn(reply, ","), ",\"error\":", 9) == 0;
}

/* Sends `request` through the caller-owned buffer, growing it when the reply is longer. */
static char *ask(GloamSession *session, const char *request, char **buffer, size_t *capacity) {
    int64_t length = gloam_session_request_into(session, request, *buffer, *capacity);
    if (length < 0) return NULL;
    if ((size_t)length >= *capacity) {
        *capacity = (size_t)length + 1;
        *buffer = realloc(*buffer, *capacity);
        if (*buffer == NULL) return NULL;
        length = gloam_session_take_reply(session, *buffer, *capacity);
        if (length < 0) return NULL;
    }
    return *buffer;
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : "cards";
    const char *ruleset = argc > 2 ? argv[2] : "harrowdeep";
    unsigned long seed = argc > 3 ? strtoul(argv[3], NULL, 10) : 7;
    rng_state = seed + 1;

    char *error = NULL;
    GloamSession *session = gloam_session_new(&data, 1, &error);
    if (session == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", data, error ? error : "?");
        gloam_string_free(error);
        return 2;
    }

    size_t capacity = 256; /* small on purpose: the first replies do not fit */
    char *buffer = malloc(capacity);
    char request[512];
    snprintf(request, sizeof request,
             "{\"id\": 1, \"cmd\": \"new_game\", \"ruleset\": \"%s\", \"seed\": %lu}", ruleset, seed);
    const char *reply = ask(session, request, &buffer, &capacity);
    long decisions = 0;
    while (reply != NULL && !is_error(reply)) {
        const char *over = strstr(reply, ",\"over\":");
        const char *last = over;
        while (last != NULL) { /* the last ,"over": is the reply's own */
            over = last;
            last = strstr(over + 1, ",\"over\":");
        }
        if (over == NULL || strncmp(over, ",\"over\":null", 12) != 0) break;
        const char *pending = strstr(reply, "\"pending\":[{\"player\":");
        if (pending == NULL) break;
        long player = strtol(pending + strlen("\"pending\":[{\"player\":"), NULL, 10);
        const char *kind = strstr(pending, "\"kind\":\"") + strlen("\"kind\":\"");
        const char *options = strstr(pending, "\"options\":[") + strlen("\"options\":");
        size_t n = count_elements(options);
        char answer[256];
        if (strncmp(kind, "one", 3) == 0) {
            snprintf(answer, sizeof answer, "{\"option\": %zu}", pick(n));
        } else if (strncmp(kind, "several", 7) == 0) {
            const char *min_at = strstr(skip_value(options), "\"min\":");
            size_t min = min_at ? strtoul(min_at + 6, NULL, 10) : 0;
            size_t used = (size_t)snprintf(answer, sizeof answer, "{\"options\": [");
            for (size_t i = 0; i < min && i < n && used < sizeof answer - 16; i++)
                used += (size_t)snprintf(answer + used, sizeof answer - used, "%s%zu", i ? ", " : "", i);
            snprintf(answer + used, sizeof answer - used, "]}");
        } else { /* order: as offered */
            size_t used = (size_t)snprintf(answer, sizeof answer, "{\"order\": [");
            for (size_t i = 0; i < n && used < sizeof answer - 16; i++)
                used += (size_t)snprintf(answer + used, sizeof answer - used, "%s%zu", i ? ", " : "", i);
            snprintf(answer + used, sizeof answer - used, "]}");
        }
        snprintf(request, sizeof request,
                 "{\"id\": %ld, \"cmd\": \"answer\", \"game\": 1, \"player\": %ld, \"answer\": %s}",
                 decisions + 2, player, answer);
        reply = ask(session, request, &buffer, &capacity);
        decisions++;
    }

    int status = 1;
    if (reply != NULL && !is_error(reply)) {
        const char *over = strstr(reply, ",\"over\":{");
        if (over != NULL) {
            printf("game over after %ld decisions: %s", decisions, over + strlen(",\"over\":"));
            printf("\n");
            status = 0;
        } else {
            fprintf(stderr, "the game stopped without a result: %.300s\n", reply);
        }
    } else {
        fprintf(stderr, "a request failed: %.300s\n", reply ? reply : "(null)");
    }

    /* The record, in a string the library owns. */
    char *record = gloam_session_request(session, "{\"id\": \"end\", \"cmd\": \"record\", \"game\": 1}");
    if (record == NULL || strstr(record, "\"format\":\"gloam-record/1\"") == NULL) status = 1;
    else printf("record: %zu bytes\n", strlen(record));
    gloam_string_free(record);

    /* A refused request changes nothing and says why. */
    char *refusal = gloam_session_request(session, "{\"id\": 0, \"cmd\": \"view\", \"game\": 99, \"player\": 0}");
    if (refusal == NULL || strstr(refusal, "\"code\":\"unknown_game\"") == NULL) status = 1;
    gloam_string_free(refusal);

    free(buffer);
    gloam_session_free(session);
    return status;
}
