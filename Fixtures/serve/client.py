"""HTTP client for Meridian's serve tests: Python's http.client, independent of the server.

Reads one JSON object on stdin and prints one JSON object on stdout.

  get    {"port": P, "requests": [{"method": "GET", "path": "/0/0/0.png", "headers": {...}}, ...]}
         -> {"responses": [{"status": 200, "headers": {lowercase name: value}, "body": hex}, ...]}
         Requests go one after the other over one connection.

  burst  {"port": P, "paths": [...]}
         -> {"responses": [{"status", "body"}, ...]}: every path requested at the same moment,
         each on its own connection and thread (released together by a barrier).

  load   {"port": P, "clients": N, "seconds": S, "cases": [{"path": ..., "status": 200,
          "file": "/expected/bytes"} | {"path": ..., "status": 404}, ...]}
         -> {"requests": n, "failures": [first 20 messages], "statuses": {code: n},
             "latency_ms": {"p50": .., "p90": .., "p99": .., "max": ..}}
         N clients, each on its own keep-alive connection, request the cases in turn (each
         client from its own starting point) until S seconds have passed and every case has
         been asked at least once (a loaded machine may answer few requests in S seconds);
         every response's status, and the body of every 200, is checked.
"""
import http.client
import json
import sys
import threading
import time


def get(spec):
    connection = http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=120)
    out = []
    for request in spec["requests"]:
        connection.request(request.get("method", "GET"), request["path"], headers=request.get("headers", {}))
        response = connection.getresponse()
        body = response.read()
        out.append({"status": response.status,
                    "headers": {k.lower(): v for k, v in response.getheaders()},
                    "body": body.hex()})
    return {"responses": out}


def burst(spec):
    paths = spec["paths"]
    barrier = threading.Barrier(len(paths))
    results = [None] * len(paths)

    def one(i):
        connection = http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=120)
        connection.connect()
        barrier.wait()
        connection.request("GET", paths[i])
        response = connection.getresponse()
        results[i] = {"status": response.status, "body": response.read().hex()}

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(paths))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"responses": results}


def load(spec):
    cases = spec["cases"]
    expected = {}
    for case in cases:
        if "file" in case:
            with open(case["file"], "rb") as f:
                expected[case["path"]] = f.read()
    deadline = time.monotonic() + spec["seconds"]
    lock = threading.Lock()
    latencies = []
    failures = []
    statuses = {}
    asked = set()

    def client(index):
        connection = http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=120)
        i = index * 7919
        mine = []
        while time.monotonic() < deadline or len(asked) < len(cases):
            case = cases[i % len(cases)]
            with lock:
                asked.add(i % len(cases))
            i += 1
            started = time.monotonic()
            try:
                connection.request("GET", case["path"])
                response = connection.getresponse()
                body = response.read()
            except Exception as error:  # a broken connection is a failure, then a new one
                with lock:
                    failures.append("%s: %s" % (case["path"], error))
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", spec["port"], timeout=120)
                continue
            mine.append((time.monotonic() - started) * 1000)
            problem = None
            if response.status != case["status"]:
                problem = "%s: status %d, expected %d" % (case["path"], response.status, case["status"])
            elif response.status == 200 and body != expected[case["path"]]:
                problem = "%s: %d bytes differ from the expected %d" % (case["path"], len(body), len(expected[case["path"]]))
            with lock:
                statuses[str(response.status)] = statuses.get(str(response.status), 0) + 1
                if problem:
                    failures.append(problem)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(spec["clients"])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()

    def percentile(p):
        return round(latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))], 2) if latencies else None

    return {"requests": len(latencies), "failures": failures[:20], "failure_count": len(failures),
            "statuses": statuses,
            "latency_ms": {"p50": percentile(50), "p90": percentile(90), "p99": percentile(99),
                           "max": round(latencies[-1], 2) if latencies else None}}


def main():
    spec = json.load(sys.stdin)
    command = {"get": get, "burst": burst, "load": load}[sys.argv[1]]
    json.dump(command(spec), sys.stdout)


if __name__ == "__main__":
    main()
