# One image for every kminer service of docker-compose.yml: `kminer api`, `kminer worker`,
# `kminer db upgrade`. Build: docker compose build (or docker build -t knowledge-miner .).

# The chat UI's Cytoscape.js, pinned in api/ui/vendor/package-lock.json.
FROM node:22-bookworm-slim AS ui
WORKDIR /ui
COPY api/ui/vendor/package.json api/ui/vendor/package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY workflows ./workflows
COPY activities ./activities
COPY api ./api
COPY storage ./storage
COPY kminer ./kminer
# Installed in place (-e): the seed DKG, the demo corpus and the UI are read from /app.
RUN python -m venv /opt/venv && /opt/venv/bin/pip install -e ".[postgres]"
# Bytecode now: the runtime user cannot write /app, and a worker's sandbox imports the
# workflow definitions afresh in every run (compiling their source each time without it).
RUN /opt/venv/bin/python -m compileall -q --invalidation-mode checked-hash \
    workflows activities api storage kminer
COPY --from=ui /ui/node_modules ./api/ui/vendor/node_modules

FROM python:3.11-slim-bookworm
RUN groupadd --system --gid 10001 kminer \
    && useradd --system --uid 10001 --gid kminer --home-dir /app --shell /usr/sbin/nologin kminer \
    && mkdir -p /data \
    && chown kminer:kminer /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    KM_DATA_DIR=/data
WORKDIR /app
USER kminer
# The embedded DKG store, the corpus index and the generated secrets live here.
VOLUME ["/data"]
EXPOSE 8000
# Workers override this in docker-compose.yml (their health file).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
ENTRYPOINT ["kminer"]
CMD ["api", "--host", "0.0.0.0", "--port", "8000"]
