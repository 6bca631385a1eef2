# rlviz served on CPU (docs/container.md: building, running, limits, Hugging Face Spaces, replicas
# behind HAProxy). Docker or Podman:
#   docker build -t rlviz .                # or: make image
#   docker run --rm -p 127.0.0.1:8501:8501 rlviz
# then open http://127.0.0.1:8501. Inside the container the server listens on every interface (0.0.0.0);
# who reaches it is chosen by -p. The app, its hardened .streamlit/config.toml and the shipped models are
# those of the rlviz wheel built from this folder.

# A Debian-based image with python3 (3.11 or newer) and its venv module: the official slim images, or
# one made locally (docs/container.md builds one with mmdebstrap where no registry is reachable).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
# torch comes from its CPU-only index: pip's own index serves the CUDA build on Linux (several GB).
# Empty: pip's index and the wheelhouse only (a CPU torch wheel in wheelhouse/ is then preferred).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
# More pip options for every install, e.g. --build-arg PIP_OPTIONS=--no-index for a build from
# wheelhouse/ alone, with no network (docs/container.md, "Offline").
ARG PIP_OPTIONS=""
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
RUN python3 -m venv /opt/rlviz

# The dependencies first, in a layer of their own (rebuilt only when pyproject.toml or the wheelhouse
# changes), from pyproject.toml's one list of them. wheelhouse/ is optional (gitignored): wheels placed
# there are copied beside pyproject.toml and offered to pip beside the indexes (--find-links).
COPY pyproject.toml wheelhouse* /tmp/deps/
RUN /opt/rlviz/bin/python -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/deps/pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/deps/requirements.txt \
 && torch="$(grep '^torch==' /tmp/deps/requirements.txt)" \
 && /opt/rlviz/bin/pip install $PIP_OPTIONS --find-links /tmp/deps ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"} "$torch" \
 && /opt/rlviz/bin/pip install $PIP_OPTIONS --find-links /tmp/deps -r /tmp/deps/requirements.txt \
 && /opt/rlviz/bin/python -c "import torch; assert not torch.version.cuda, 'a CUDA torch: see TORCH_INDEX_URL'; print('torch', torch.__version__)"

# rlviz itself: the wheel of this folder (setup.py adds the app), built with the setuptools torch brought
COPY pyproject.toml setup.py MANIFEST.in README.md requirements.txt app.py /tmp/src/
COPY rlviz /tmp/src/rlviz
COPY pages /tmp/src/pages
COPY app_common /tmp/src/app_common
COPY assets /tmp/src/assets
COPY .streamlit /tmp/src/.streamlit
RUN /opt/rlviz/bin/pip install $PIP_OPTIONS --no-deps --no-build-isolation /tmp/src \
 && /opt/rlviz/bin/rlviz app --dry-run --address 0.0.0.0

FROM ${PYTHON_IMAGE}
COPY --from=build /opt/rlviz /opt/rlviz
# a user of its own, not root (uid 1000, the one Hugging Face Spaces runs as)
RUN useradd --create-home --uid 1000 rlviz
USER rlviz
WORKDIR /home/rlviz
# The run limits are environment variables, read when the server starts (docs/serving.md, e.g.
# docker run -e RLVIZ_CONCURRENT_STEPS=1 -e RLVIZ_MAX_STEPS=100 ...); so are RLVIZ_MODEL_DIR (a model
# folder mounted into the container), RLVIZ_DEVICE and STREAMLIT_SERVER_COOKIE_SECRET (replicas).
ENV PATH=/opt/rlviz/bin:$PATH PYTHONUNBUFFERED=1
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["/opt/rlviz/bin/python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"]
# `docker run IMAGE compare --steps 5` runs another rlviz command instead of the server
ENTRYPOINT ["rlviz"]
CMD ["app", "--address", "0.0.0.0", "--port", "8501"]
