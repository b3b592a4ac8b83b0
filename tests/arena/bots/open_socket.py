import socket


def _try(label, make):
    try:
        make()
    except OSError as exc:
        print(f"CONTAINED {label}: {exc}", flush=True)
    else:
        print(f"ESCAPED {label}", flush=True)


def choose(observation, legal_actions):
    _try("tcp-internet", lambda: socket.create_connection(("1.1.1.1", 80), timeout=0.2))
    _try("tcp-localhost-redis", lambda: socket.create_connection(("127.0.0.1", 6379), timeout=0.2))
    _try(
        "udp",
        lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("8.8.8.8", 53)),
    )

    def unix():
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect("/var/run/postgresql/.s.PGSQL.5432")

    _try("unix-postgres", unix)
    return 0
