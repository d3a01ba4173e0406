// See include/http_server.h.
#include "http_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#include <microhttpd.h>

struct hs_server {
    struct MHD_Daemon *daemon;
    int socket;
    uint16_t port;
    hs_handler handler;
    void *context;
};

const char *hs_header(hs_request *request, const char *name) {
    return MHD_lookup_connection_value((struct MHD_Connection *)request->connection, MHD_HEADER_KIND, name);
}

void hs_respond(hs_request *request, unsigned int status, const void *body, size_t size, const char *headers) {
    if (request->responded) return;
    request->responded = 1;
    struct MHD_Response *response = MHD_create_response_from_buffer(size, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return;
    // "Name: value" lines.
    const char *line = headers;
    while (line != NULL && *line != '\0') {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', length);
        if (colon != NULL) {
            char name[128];
            char value[1024];
            size_t name_length = (size_t)(colon - line);
            const char *value_start = colon + 1;
            while (value_start < line + length && *value_start == ' ') value_start++;
            size_t value_length = (size_t)(line + length - value_start);
            if (name_length < sizeof name && value_length < sizeof value) {
                memcpy(name, line, name_length);
                name[name_length] = '\0';
                memcpy(value, value_start, value_length);
                value[value_length] = '\0';
                MHD_add_response_header(response, name, value);
            }
        }
        line = end ? end + 1 : NULL;
    }
    MHD_queue_response((struct MHD_Connection *)request->connection, status, response);
    MHD_destroy_response(response);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **request_context) {
    (void)version;
    (void)upload_data;
    hs_server *server = cls;
    // The first call comes with the headers; a request body (which no route takes) is
    // skipped through the calls that follow, and the answer is given on the last one.
    if (*request_context == NULL) {
        static int headers_seen;
        *request_context = &headers_seen;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    hs_request request;
    memset(&request, 0, sizeof request);
    request.method = method;
    request.url = url;
    request.connection = connection;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info != NULL && info->client_addr != NULL) {
        const struct sockaddr *address = info->client_addr;
        if (address->sa_family == AF_INET) {
            inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, request.client, sizeof request.client);
        } else if (address->sa_family == AF_INET6) {
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, request.client,
                      sizeof request.client);
        }
    }
    if (request.client[0] == '\0') strcpy(request.client, "-");
    server->handler(server->context, &request);
    if (!request.responded) hs_respond(&request, 500, "", 0, "");
    return MHD_YES;
}

hs_server *hs_start(const char *address, uint16_t port, unsigned int threads, unsigned int connections,
                    hs_handler handler, void *context, char *error, size_t error_size) {
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    socklen_t length;
    int family;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        family = AF_INET;
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        family = AF_INET6;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        snprintf(error, error_size, "'%s' is not an IPv4 or IPv6 address", address);
        return NULL;
    }
    // The socket is made here, not by libmicrohttpd, for a clear reason when it fails and
    // the port chosen when `port` is 0.
    int sock = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0) {
        snprintf(error, error_size, "cannot make a socket: %s", strerror(errno));
        return NULL;
    }
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (bind(sock, (struct sockaddr *)&storage, length) != 0 || listen(sock, 128) != 0) {
        snprintf(error, error_size, "cannot listen on %s port %u: %s", address, (unsigned)port, strerror(errno));
        close(sock);
        return NULL;
    }
    socklen_t bound_length = sizeof storage;
    getsockname(sock, (struct sockaddr *)&storage, &bound_length);
    hs_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        close(sock);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->socket = sock;
    server->port = ntohs(family == AF_INET ? v4->sin_port : v6->sin6_port);
    server->handler = handler;
    server->context = context;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (family == AF_INET6) flags |= MHD_USE_IPv6;
    server->daemon = MHD_start_daemon(flags, 0, NULL, NULL, access_handler, server, MHD_OPTION_LISTEN_SOCKET, sock,
                                      MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, connections,
                                      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30, MHD_OPTION_END);
    if (server->daemon == NULL) {
        snprintf(error, error_size, "libmicrohttpd could not start on %s port %u", address, (unsigned)server->port);
        close(sock);
        free(server);
        return NULL;
    }
    return server;
}

uint16_t hs_port(const hs_server *server) { return server->port; }

void hs_stop(hs_server *server) {
    if (server == NULL) return;
    MHD_stop_daemon(server->daemon);  // closes the listening socket too
    free(server);
}
