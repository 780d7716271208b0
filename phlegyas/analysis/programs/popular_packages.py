"""Names a typosquat imitates: widely used packages of PyPI and npm, as data for ``lookalike``.

A bare name from the default index is Tier-2 safe (issue 11, item 4), but not a name one typo away from a
popular one (``reqeusts``, ``crossenv``, ``jeIlyfish``): the registries have hosted malware under such
names for years. ``lookalike`` says which popular package a name imitates: one letter added, dropped,
changed or two swapped (for names of five letters or more, so that short real names are not confused),
a separator added or dropped, or a homoglyph (``I`` or ``1`` for ``l``, ``0`` for ``o``). A popular name
itself, and any name these lists do not come near, is not a look-alike.
"""
from __future__ import annotations

from typing import Final

PYPI: Final = frozenset("""
requests urllib3 boto3 botocore setuptools numpy pandas certifi idna charset-normalizer python-dateutil
typing-extensions packaging pyyaml six s3transfer cryptography pip wheel attrs jmespath pydantic pydantic-core
protobuf cffi pycparser platformdirs jinja2 markupsafe click pluggy pytest filelock virtualenv rsa pyasn1
tomli importlib-metadata zipp colorama google-api-core googleapis-common-protos grpcio aiohttp yarl multidict
frozenlist aiosignal async-timeout wrapt decorator jsonschema psutil sqlalchemy greenlet werkzeug flask
itsdangerous blinker fastapi starlette uvicorn gunicorn httpx httpcore h11 anyio sniffio django
djangorestframework celery redis kombu billiard vine amqp pymongo psycopg2 psycopg2-binary psycopg
mysqlclient pymysql matplotlib scipy scikit-learn joblib threadpoolctl pillow tqdm requests-oauthlib oauthlib
beautifulsoup4 soupsieve lxml html5lib openpyxl xlrd tabulate rich pygments markdown-it-py mdurl docutils
sphinx black isort flake8 pycodestyle pyflakes mccabe pylint astroid mypy mypy-extensions ruff coverage
pytest-cov pytest-mock pytest-asyncio pytest-xdist tox nox pre-commit virtualenv-clone poetry pipenv
paramiko pynacl bcrypt fabric invoke boto s3fs fsspec gcsfs azure-core azure-storage-blob msal
google-cloud-storage google-auth cachetools pyjwt python-jose passlib python-multipart python-dotenv
marshmallow arrow pendulum pytz tzdata tzlocal babel simplejson ujson orjson msgpack pyarrow polars
dask distributed toolz cloudpickle numba llvmlite sympy mpmath networkx regex nltk spacy gensim
transformers tokenizers huggingface-hub safetensors torch torchvision tensorflow keras jax jaxlib
opencv-python opencv-python-headless imageio scikit-image seaborn plotly bokeh dash streamlit gradio
jupyter notebook jupyterlab ipython ipykernel traitlets tornado pyzmq nbformat nbconvert selenium
playwright scrapy twisted websocket-client websockets grpcio-tools kubernetes docker ansible jsonpointer
jsonpatch pyopenssl openai anthropic langchain tiktoken colorlog loguru structlog sentry-sdk prometheus-client
elasticsearch pika confluent-kafka kafka-python alembic peewee tortoise-orm typer argparse docopt fire
humanize shapely geopandas pyproj fiona xmltodict defusedxml chardet termcolor pexpect ptyprocess
pyperclip keyring pywin32 setuptools-scm hatchling flit-core build twine readme-renderer pkginfo
more-itertools jellyfish fuzzywuzzy rapidfuzz python-levenshtein faker factory-boy hypothesis freezegun
responses moto mock nose parameterized deprecated wcwidth prompt-toolkit sqlparse gitpython
""".split())

NPM: Final = frozenset("""
lodash react react-dom vue angular express axios chalk commander debug moment dayjs uuid classnames
prop-types typescript webpack webpack-cli babel-loader @babel/core @babel/preset-env eslint prettier jest
mocha chai sinon vitest vite rollup esbuild parcel next nuxt svelte tailwindcss postcss autoprefixer sass
less styled-components emotion redux react-redux @reduxjs/toolkit mobx rxjs zod yup joi ajv dotenv
cross-env nodemon concurrently rimraf mkdirp glob minimatch fs-extra graceful-fs chokidar yargs minimist
inquirer ora colors cli-color kleur picocolors semver node-fetch cross-fetch got request superagent
body-parser cookie-parser cors helmet morgan multer passport jsonwebtoken bcrypt bcryptjs mongoose
mongodb mysql mysql2 pg sequelize typeorm prisma knex redis ioredis socket.io ws graphql apollo-server
@apollo/client react-router react-router-dom vue-router pinia vuex immer ramda underscore async bluebird
q core-js regenerator-runtime tslib @types/node @types/react ts-node tsx nanoid shortid crypto-js
date-fns luxon lru-cache node-cache qs query-string validator sanitize-html marked markdown-it highlight.js
cheerio puppeteer playwright jsdom supertest nock faker @faker-js/faker husky lint-staged commitlint
eslint-config-prettier eslint-plugin-react eslint-plugin-import typescript-eslint @typescript-eslint/parser
storybook turbo lerna nx pm2 forever serve http-server live-server browserify gulp grunt uglify-js terser
@vitejs/plugin-react electron sharp jimp canvas three d3 chart.js leaflet aws-sdk @aws-sdk/client-s3
firebase stripe twilio nodemailer winston pino bunyan dotenv-expand envalid config convict event-stream
through2 readable-stream inherits safe-buffer buffer string-width strip-ansi ansi-styles supports-color
escape-string-regexp is-number kind-of ms once wrappy balanced-match brace-expansion babel-cli babel-core
""".split())

KNOWN_BAD: Final[dict[str, dict[str, frozenset[str] | None]]] = {
    # registry → name → the releases that shipped malware (None: every release of the name)
    "pypi": {"torchtriton": None, "ctx": None, "colourama": None, "python3-dateutil": None},
    "npm": {"event-stream": frozenset({"3.3.6"}), "flatmap-stream": None, "ua-parser-js": frozenset({
        "0.7.29", "0.8.0", "1.0.0"}), "coa": frozenset({"2.0.3", "2.0.4", "2.1.1", "2.1.3", "3.0.1", "3.1.3"}),
        "rc": frozenset({"1.2.9", "1.3.9", "2.3.9"}), "colors": frozenset({"1.4.1", "1.4.2", "1.4.44-liberty-2"}),
        "faker": frozenset({"6.6.6"}), "node-ipc": frozenset({"10.1.1", "10.1.2", "10.1.3"}),
        "eslint-scope": frozenset({"3.7.2"})},
    "crates": {"rustdecimal": None, "faster_log": None, "async_println": None},
    "go": {"github.com/boltdb-go/bolt": None},
}
"""Releases the registries pulled after they shipped malware: installing one is never automatic."""

_HOMOGLYPHS: Final = str.maketrans({"I": "l", "1": "l", "0": "o"})


def _plain(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter added, dropped or changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1 and a[diffs[0]] == b[diffs[1]]
                                   and a[diffs[1]] == b[diffs[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long_)) if x != y), len(short))
    return short[i:] == long_[i + 1:]


def known_bad(name: str, version: str, registry: str) -> bool:
    """Whether ``name`` (at ``version``, "" when none is named) is a release that shipped malware."""
    bad = KNOWN_BAD.get(registry, {})
    if name not in bad:
        return False
    versions = bad[name]
    return versions is None or version.lstrip("=v") in versions


def lookalike(name: str, registry: str) -> str | None:
    """The popular package of ``registry`` (``"pypi"`` or ``"npm"``) that ``name`` imitates, or None."""
    known = PYPI if registry == "pypi" else NPM
    plain = _plain(name)
    if plain in known or name in known:
        return None
    glyphs = _plain(name.translate(_HOMOGLYPHS))
    if glyphs != plain and glyphs in known:
        return glyphs
    if len(plain) < 5:
        return None
    squeezed = plain.replace("-", "")
    for popular in known:
        if len(popular) >= 5 and (_one_edit(plain, popular) or squeezed == popular.replace("-", "")):
            return popular
    return None


__all__ = ["KNOWN_BAD", "NPM", "PYPI", "known_bad", "lookalike"]
