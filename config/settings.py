"""Django settings for Catleague. Everything deployment-specific comes from the environment."""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_secret_key,
    env_str,
    make_folder,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("CATLEAGUE_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_secret_key("DJANGO_SECRET_KEY", key_file=VAR_DIR / "secret_key")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# HTTPS. Off by default so bin/serve works on plain http://127.0.0.1; a deployment turns them on
# (see .env.example: `manage.py check --deploy` passes with those values).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
# Load balancers and service managers ask for /healthz over plain HTTP from inside.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", False)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto; never trust the header otherwise.
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "allauth",
    "allauth.account",
    "axes",
    "dbbackup",
    "league",
    "arena",
    "accounts",
    "home",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.signup",
                "accounts.context_processors.waiting_for_you",
            ],
        },
    },
]

# Embedded default: SQLite in var/. Set DATABASE_URL for PostgreSQL (psycopg 3).
_database_url = env_str("DATABASE_URL", "")
if _database_url:
    try:
        DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=60)}
    except Exception as exc:  # dj-database-url raises several types for bad URLs
        raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from exc
else:
    make_folder(VAR_DIR, "CATLEAGUE_VAR_DIR")
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "catleague.sqlite3"),
            # The web server and the arena's worker write at the same time: WAL lets readers
            # go on during a write, and IMMEDIATE takes the write lock at BEGIN, so a
            # transaction waits its turn instead of failing with "database is locked".
            "OPTIONS": {
                "timeout": 30,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Season standings are cached (keyed by the league's latest change, so never stale). The
# default cache is per process; with several web processes set CACHE_URL to a Redis URL so
# they share it.
_cache_url = env_str("CACHE_URL", "")
if _cache_url and not _cache_url.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL, not {_cache_url!r}")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": _cache_url,
        "KEY_PREFIX": "catleague",
    }
    if _cache_url
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First, so a locked-out username or address is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Accounts (django-allauth). Sign-up is open, by invitation only, or closed.
CATLEAGUE_SIGNUP = env_choice("CATLEAGUE_SIGNUP", "open", ["open", "invite", "closed"])
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "accounts.forms.LoginForm", "signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_choice(
    "CATLEAGUE_EMAIL_VERIFICATION", "optional", ["none", "optional", "mandatory"]
)
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_SESSION_REMEMBER = None
ACCOUNT_USERNAME_BLACKLIST = ["admin", "demo", "house", "root"]
# django-axes counts failed log-ins per username and address and locks both out for a while.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15, minimum=1) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # every failed log-in, for the admin to read
AXES_LOCKOUT_TEMPLATE = "account/locked_out.html"
AXES_USERNAME_CALLABLE = "accounts.adapter.attempted_username"
AXES_VERBOSE = False  # not a banner on every manage.py command's error output

# E-mail: printed to the console (the worker's log) unless an SMTP host is set. Encryption is
# STARTTLS (EMAIL_USE_TLS, port 587) or implicit TLS (EMAIL_USE_SSL, port 465), never both.
# E-mails are sent by a Celery task (accounts.tasks), which retries when the server fails.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other: set one to 0")
EMAIL_PORT = env_int("EMAIL_PORT", 465 if EMAIL_USE_SSL else 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
# Seconds to wait for the mail server before giving up (the task tries again later).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Catleague <noreply@localhost>")
# The site's address, for the links in e-mails (a worker sends them, with no request to ask).
CATLEAGUE_SITE_URL = env_str("CATLEAGUE_SITE_URL", "http://127.0.0.1:8000")
if not CATLEAGUE_SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        f"CATLEAGUE_SITE_URL must start with http:// or https://, not {CATLEAGUE_SITE_URL!r}"
    )
# How long a league invitation link stays valid.
CATLEAGUE_INVITATION_DAYS = env_int("CATLEAGUE_INVITATION_DAYS", 14, minimum=1)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# JSON bodies are held to this size by the API's parser too (config/api/parsers.py); Django's
# default (2.5 MB) is ten times the largest bot source.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DJANGO_DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440, minimum=1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Named tokens from the account page, and the one /api/auth/token/ hands out.
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": [
        "config.api.filters.StrictFilterBackend",
        "config.api.filters.StrictOrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    # Throttles count in the default cache: set CACHE_URL so that several web processes share
    # one count. Client addresses come from REMOTE_ADDR, or from X-Forwarded-For behind
    # DJANGO_NUM_PROXIES trusted proxies (never from a header a client could forge).
    "DEFAULT_THROTTLE_RATES": {"auth-token": env_str("API_TOKEN_LOGIN_RATE", "10/min")},
    "NUM_PROXIES": env_int("DJANGO_NUM_PROXIES", 0, minimum=0),
    "DEFAULT_SCHEMA_CLASS": "config.api.schema.ErrorDocumentingAutoSchema",
    "EXCEPTION_HANDLER": "config.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Catleague API",
    "DESCRIPTION": "Leagues of physical cat card games, and a bot arena. Writing a bot, the "
    "observations and actions of both games, limits, and these endpoints with curl: "
    "[the bot docs](/arena/docs/).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from our own static files: the docs page works with no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a `status` or `game` with different choices: name each set.
    "ENUM_NAME_OVERRIDES": {
        "BotVersionStatusEnum": "arena.models.BotVersion.Status",
        "TournamentStatusEnum": "arena.models.Tournament.Status",
        "MatchStatusEnum": "arena.models.Match.Status",
        "ArenaGameEnum": ["cantankerous-cats", "cat-lady"],
    },
}

# Celery. Set CELERY_BROKER_URL (Redis) for real deployments. With none, the arena runs on an
# embedded broker: kombu's filesystem transport, a folder of messages in var/celery/ that the
# worker bin/serve starts beside the web server consumes (with beat inside it), so ladders,
# validation and challenges work as they do with Redis, and nothing needs a server.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600, minimum=1),
}
if CELERY_BROKER_URL:
    CELERY_RESULT_BACKEND: str | None = env_str("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
else:
    EMBEDDED_QUEUE_DIR = VAR_DIR / "celery" / "queue"
    make_folder(EMBEDDED_QUEUE_DIR, "CATLEAGUE_VAR_DIR")
    CELERY_BROKER_URL = "filesystem://localhost/"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(EMBEDDED_QUEUE_DIR),
        "data_folder_out": str(EMBEDDED_QUEUE_DIR),
        # Its exchange tables: kombu's default is ./control, which is the checkout.
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
        "polling_interval": 0.5,
    }
    CELERY_RESULT_BACKEND = None  # every task ignores its result
    CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celery" / "beat-schedule")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
# A broker that is down must not hold a web request for long: the match row is written and
# the reaper sends it later (arena.common.enqueue).
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0.2,
    "interval_step": 0.5,
    "interval_max": 1,
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
# E-mails wait on a queue of their own, which the live worker consumes (bin/catleague): a slow
# mail server and a long queue of ladder matches never hold each other up.
CATLEAGUE_MAIL_QUEUE = env_str("CATLEAGUE_MAIL_QUEUE", "mail")
CELERY_TASK_ROUTES = {"accounts.tasks.send_email": {"queue": CATLEAGUE_MAIL_QUEUE}}
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

# League ratings
LEAGUE_PROVISIONAL_GAMES = env_int("LEAGUE_PROVISIONAL_GAMES", 5, minimum=0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Celery beat: keep ladders busy, clean up matches whose worker died, confirm overdue results.
CELERY_BEAT_SCHEDULE = {
    "arena-ladder-tick": {
        "task": "arena.tasks.ladder_tick",
        "schedule": float(env_int("ARENA_LADDER_TICK_S", 30, minimum=1)),
    },
    "arena-reap-stuck": {
        "task": "arena.tasks.reap_stuck_matches",
        "schedule": float(env_int("ARENA_REAP_EVERY_S", 10, minimum=1)),
    },
    # Results that wait for confirmation: those past their league's window become final.
    "league-confirm-overdue": {
        "task": "league.tasks.confirm_overdue_games",
        "schedule": float(env_int("LEAGUE_CONFIRM_EVERY_S", 3600, minimum=1)),
    },
}
# The reaper (every ARENA_REAP_EVERY_S): a worker beats the heartbeat of the match it plays
# every ARENA_HEARTBEAT_S; a running match whose heartbeat is older than ARENA_LIVE_STALE_S (a
# person at the table) or ARENA_MATCH_STALE_S (bots only) lost its worker and is played again,
# from the moves already made. A bots-only match still running after ARENA_MATCH_DEADLINE_S
# is played again whatever its heartbeat (a hung worker). A queued one is resent after
# ARENA_QUEUED_DEADLINE_S (its message may be lost), or after ARENA_INFRA_RETRY_S when it
# waits for the infrastructure (no sandbox on the worker).
ARENA_HEARTBEAT_S = env_int("ARENA_HEARTBEAT_S", 5, minimum=1)
ARENA_LIVE_STALE_S = env_int("ARENA_LIVE_STALE_S", 15, minimum=1)
ARENA_MATCH_STALE_S = env_int("ARENA_MATCH_STALE_S", 45, minimum=1)
if min(ARENA_LIVE_STALE_S, ARENA_MATCH_STALE_S) < 2 * ARENA_HEARTBEAT_S:
    raise ImproperlyConfigured(
        "ARENA_LIVE_STALE_S and ARENA_MATCH_STALE_S must be at least twice ARENA_HEARTBEAT_S "
        f"({ARENA_HEARTBEAT_S} s), or one slow beat would pass for a lost worker"
    )
ARENA_MATCH_DEADLINE_S = env_int("ARENA_MATCH_DEADLINE_S", 600, minimum=1)
ARENA_QUEUED_DEADLINE_S = env_int("ARENA_QUEUED_DEADLINE_S", 300, minimum=1)
ARENA_INFRA_RETRY_S = env_int("ARENA_INFRA_RETRY_S", 30, minimum=1)
# Live matches (a person at the table with bots): their queue, the person's time per move,
# and an optional pause after each bot's move (none by default: replies come as fast as the
# bots think, and the table marks each seat's last move instead).
ARENA_LIVE_QUEUE = env_str("ARENA_LIVE_QUEUE", "live")
ARENA_HUMAN_MOVE_S = env_int("ARENA_HUMAN_MOVE_S", 180, minimum=5)
ARENA_LIVE_PACE_MS = env_int("ARENA_LIVE_PACE_MS", 0, minimum=0)
# How a live table's web request and worker wake each other (arena/live/wakeup.py): Redis
# pub/sub when the broker is Redis, else named pipes in var/live/ (one machine).
ARENA_LIVE_WAKE = env_choice(
    "ARENA_LIVE_WAKE",
    "redis" if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "fifo",
    ["redis", "fifo"],
)
# How long the table's state request waits for a change before it answers anyway.
ARENA_LIVE_LONG_POLL_S = env_int("ARENA_LIVE_LONG_POLL_S", 25, minimum=1)
# The review after a live game (arena.review): the house MCTS's playouts at each of a person's
# moves, and the time one move's search may take at most (a review is reproducible from the
# match's seed as long as no search hits that limit).
ARENA_REVIEW_ITERATIONS = env_int("ARENA_REVIEW_ITERATIONS", 300, minimum=1)
ARENA_REVIEW_MOVE_MS = env_int("ARENA_REVIEW_MOVE_MS", 2000, minimum=1)
# Every worker says it is alive every ARENA_WORKER_BEAT_S (a row per host, any broker);
# /healthz counts a worker seen within ARENA_WORKER_SEEN_S as up.
ARENA_WORKER_BEAT_S = env_int("ARENA_WORKER_BEAT_S", 15, minimum=1)
ARENA_WORKER_SEEN_S = env_int("ARENA_WORKER_SEEN_S", 60, minimum=1)
# A new version's gauntlet (arena.gauntlet): this many deals, each played from both seats
# against the version it would replace, house greedy and house mcts: 6 matches a deal.
ARENA_GAUNTLET_DEALS = env_int("ARENA_GAUNTLET_DEALS", 12, minimum=1)
# ... queued this many deals at a time, the next as one is over (12 matches queued at once, not
# 72 ahead of everyone's challenges and ladder matches).
ARENA_GAUNTLET_DEALS_AT_ONCE = env_int("ARENA_GAUNTLET_DEALS_AT_ONCE", 2, minimum=1)

# Backups (django-dbbackup): `manage.py backup` writes the whole database to one file in
# CATLEAGUE_BACKUP_DIR; `manage.py restore FILE` puts one back (home/management/commands/).
BACKUP_DIR = Path(env_str("CATLEAGUE_BACKUP_DIR", str(VAR_DIR / "backups")))
STORAGES["dbbackup"] = {"BACKEND": "config.backups.BackupStorage"}  # a folder: BACKUP_DIR
DBBACKUP_FILENAME_TEMPLATE = "catleague-{datetime}.{extension}"
DBBACKUP_SEND_EMAIL = False  # a failed backup is reported by the command's exit status
# SQLite restores go through SQLite, in one transaction (config/backups.py says why).
DBBACKUP_CONNECTOR_MAPPING = {"django.db.backends.sqlite3": "config.backups.SqliteConnector"}
# PostgreSQL (pg_dump/pg_restore): a backup restores on another server whose role names differ.
DBBACKUP_CONNECTORS = {"default": {"PG_OPTIONS": "--no-owner --no-acl"}}
