# Ludothèque: the bot, with its SQLite database on a volume.
#   docker build -t ludotheque .
#   docker run -d --name ludotheque --env-file .env -v ludotheque-data:/app/data ludotheque
FROM python:3.11-slim

# Metrics (served only with METRICS_PORT set) listen on every interface: in a container,
# 127.0.0.1 is out of Prometheus's reach.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////app/data/ludotheque.db HEALTH_FILE=/tmp/ludotheque.alive \
    METRICS_ADDR=0.0.0.0
WORKDIR /app

COPY pyproject.toml README.md ./
COPY engines engines
COPY renderers renderers
COPY storage storage
COPY ai ai
COPY bot bot
COPY i18n i18n
RUN pip install --no-cache-dir . && useradd --create-home ludotheque \
    && mkdir -p /app/data && chown ludotheque /app/data
USER ludotheque
VOLUME ["/app/data"]
# Healthy while connected to Discord with a database that answers (see bot/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=2m --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["python", "-m", "bot"]
