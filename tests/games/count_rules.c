/* A rules library in C (docs/game-library.md), for the tests: "count to ten". A move adds
 * 1 or 2 to a running total; whoever brings it to 10 or more wins. A position is the moves
 * played ("1212"). Built with -DFAIL_AT=N, every call about a position whose total is N
 * fails: a broken library, whose games must end as rules_failure with its message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAIL_AT
#define FAIL_AT -1
#endif

typedef struct {
    int32_t to_move, over, winner, chance;
    const char *reason;
} Status;

typedef struct {
    uint32_t abi;
    void *(*open)(void);
    void (*close)(void *);
    size_t (*request)(void *, const uint8_t *, size_t, uint8_t *, size_t);
    int64_t (*count)(void *, const uint8_t *, size_t);
    int64_t (*apply)(void *, const uint8_t *, size_t, uint32_t, uint8_t *, size_t, Status *);
    int64_t (*move_text)(void *, const uint8_t *, size_t, uint32_t, uint8_t *, size_t);
    int32_t (*evaluate)(void *, const uint8_t *, size_t, uint32_t, double *);
} Rules;

static int total(const uint8_t *pos, size_t len) {
    int sum = 0;
    for (size_t i = 0; i < len; i++) sum += pos[i] - '0';
    return sum;
}

static void *open_context(void) { return malloc(1); }
static void close_context(void *context) { free(context); }

static size_t give(const char *text, uint8_t *out, size_t cap) {
    size_t len = strlen(text);
    if (len <= cap) memcpy(out, text, len);
    return len;
}

static void status_json(const char *pos, size_t len, char *out, size_t cap) {
    int sum = total((const uint8_t *)pos, len);
    if (sum >= 10)
        snprintf(out, cap, "{\"over\":true,\"winner\":\"P%d\",\"reason\":\"ten\"}", len % 2 == 1 ? 1 : 2);
    else
        snprintf(out, cap, "{\"to_move\":\"P%d\"}", len % 2 == 0 ? 1 : 2);
}

static size_t request(void *context, const uint8_t *line, size_t len, uint8_t *out, size_t cap) {
    (void)context;
    char text[4096], pos[1024] = "", move[16] = "", reply[8192], status[256];
    snprintf(text, sizeof text, "%.*s", (int)len, (const char *)line);
    const char *at = strstr(text, "\"position\":\"");
    if (at) sscanf(at + 12, "%1000[^\"]", pos);
    at = strstr(text, "\"move\":\"");
    if (at) sscanf(at + 8, "%10[^\"]", move);
    size_t plies = strlen(pos);
    int sum = total((const uint8_t *)pos, plies);
    if (sum == FAIL_AT && !strstr(text, "\"type\":\"hello\""))
        return give("{\"type\":\"error\",\"message\":\"broken at the total the library was built to fail at\"}", out, cap);
    if (strstr(text, "\"type\":\"hello\""))
        return give("{\"type\":\"ready\",\"protocol\":2,\"name\":\"count to ten (C)\"}", out, cap);
    if (strstr(text, "\"type\":\"initial\""))
        return give("{\"type\":\"position\",\"position\":\"\"}", out, cap);
    status_json(pos, plies, status, sizeof status);
    if (strstr(text, "\"type\":\"status\"")) {
        snprintf(reply, sizeof reply, "{\"type\":\"status\",%s", status + 1);
        return give(reply, out, cap);
    }
    if (strstr(text, "\"type\":\"legal\""))
        return give(sum >= 10 ? "{\"type\":\"legal\",\"moves\":[]}" : "{\"type\":\"legal\",\"moves\":[\"1\",\"2\"]}", out, cap);
    if (strstr(text, "\"type\":\"apply\"") && sum < 10 && (!strcmp(move, "1") || !strcmp(move, "2"))) {
        char child[1040];
        snprintf(child, sizeof child, "%s%s", pos, move);
        status_json(child, strlen(child), status, sizeof status);
        snprintf(reply, sizeof reply, "{\"type\":\"position\",\"position\":\"%s\",\"status\":%s}", child, status);
        return give(reply, out, cap);
    }
    return give("{\"type\":\"error\",\"message\":\"not a request this game answers\"}", out, cap);
}

static int64_t count(void *context, const uint8_t *pos, size_t len) {
    (void)context;
    int sum = total(pos, len);
    return sum == FAIL_AT ? -1 : sum >= 10 ? 0 : 2;
}

static int64_t apply(void *context, const uint8_t *pos, size_t len, uint32_t index, uint8_t *out,
                     size_t cap, Status *status) {
    (void)context;
    int sum = total(pos, len);
    if (sum == FAIL_AT || sum >= 10 || index > 1) return -1;
    if (len + 1 > cap) return (int64_t)(len + 1);
    memcpy(out, pos, len);
    out[len] = (uint8_t)('1' + index);
    sum += 1 + (int)index;
    status->over = sum >= 10;
    status->to_move = (int32_t)((len + 1) % 2);
    status->winner = sum >= 10 ? (int32_t)(len % 2) : -1;
    status->chance = 0;
    status->reason = "ten";
    return (int64_t)(len + 1);
}

static int64_t move_text(void *context, const uint8_t *pos, size_t len, uint32_t index, uint8_t *out,
                         size_t cap) {
    (void)context;
    if (total(pos, len) == FAIL_AT || index > 1) return -1;
    return (int64_t)give(index == 0 ? "1" : "2", out, cap);
}

static const Rules RULES = {1, open_context, close_context, request, count, apply, move_text, NULL};

const Rules *arbiter_rules_v1(void) { return &RULES; }
