// A small HTTP server over libmicrohttpd for the Serve module.
//
// libmicrohttpd's entry points that Swift needs are variadic (MHD_start_daemon,
// MHD_get_connection_info), which Swift cannot call; this file makes them plain calls, and
// keeps every libmicrohttpd type on the C side. What to answer is decided in Swift: each
// request is handed to one callback, which answers with `hs_respond`.
#ifndef MERIDIAN_HTTP_SERVER_H
#define MERIDIAN_HTTP_SERVER_H

#include <stddef.h>
#include <stdint.h>

typedef struct hs_server hs_server;

// One request while its handler runs.
typedef struct hs_request {
    const char *method;
    const char *url;                 // the path, without the query
    char client[64];                 // the client's address, as text
    void *connection;                // private: the libmicrohttpd connection
    int responded;
} hs_request;

// Called on one of the server's threads for each request; must call hs_respond once.
typedef void (*hs_handler)(void *context, hs_request *request);

// The value of request header `name`, or NULL.
const char *hs_header(hs_request *request, const char *name);

// Answers: status, body (copied), and `headers` as "Name: value" lines separated by "\n".
void hs_respond(hs_request *request, unsigned int status, const void *body, size_t size, const char *headers);

// Listens on `address` (an IPv4 or IPv6 literal) and `port` (0: any free one) with a pool
// of `threads` threads and at most `connections` connections at once. NULL on failure, with
// the reason in `error`.
hs_server *hs_start(const char *address, uint16_t port, unsigned int threads, unsigned int connections,
                    hs_handler handler, void *context, char *error, size_t error_size);

// The port the server listens on.
uint16_t hs_port(const hs_server *server);

// Stops accepting, waits for the requests being answered, frees everything.
void hs_stop(hs_server *server);

#endif
