# Tilehost in a container (docs/hosting.md, "Container"):
#   docker build -t tilehost .                                # the bot
#   docker build --build-arg EXTRAS=local -t tilehost:local . # with local mode's SimCord preview
# The bot runs as the unprivileged user `tilehost`; its data is in the volume /data; the health
# check asks the running bot whether it is alive (its heartbeat file is fresh).
FROM python:3.11-slim AS build
ARG EXTRAS=""
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY requirements/ requirements/
COPY tools/install.sh tools/
COPY bot/ bot/
COPY cogs/ cogs/
COPY games/ games/
COPY rendering/ rendering/
RUN tools/install.sh /opt/tilehost "$EXTRAS" \
    && /opt/tilehost/bin/python -m pip uninstall --quiet --yes setuptools

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 tilehost && mkdir /data && chown tilehost:tilehost /data
COPY --from=build /opt/tilehost /opt/tilehost
ENV PATH=/opt/tilehost/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    TILEHOST_DB=/data/tilehost.db \
    TILEHOST_LOCAL_DB=/data/local.db \
    TILEHOST_HEALTH_FILE=/tmp/tilehost-alive
USER tilehost
WORKDIR /data
VOLUME /data
HEALTHCHECK --interval=30s --timeout=15s --start-period=90s --retries=3 CMD ["python", "-m", "bot", "check", "--alive"]
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
