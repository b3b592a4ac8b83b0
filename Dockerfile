# One image for the web, worker and beat services.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# bubblewrap + libseccomp for the bot sandbox; /usr/bin/python3 is what jailed bots run.
RUN apt-get update && apt-get install -y --no-install-recommends \
        bubblewrap libseccomp2 python3 util-linux passwd postgresql-client \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# collectstatic signs nothing, but the settings refuse to load without a key: a throwaway one.
RUN bash scripts/setup-sandbox.sh \
    && DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
       bin/catleague manage collectstatic --noinput
# Every service runs `bin/catleague web|worker|live-worker|beat` (docker-compose.yml), as the
# systemd units of a machine without Docker do; in a container the web listens on every address.
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
CMD ["bin/catleague", "web"]
