"""The benchmarks' scratch folder: made for one measurement, removed after it unless
`--keep` asks to keep it (its path is then printed)."""

import contextlib
import pathlib
import shutil
import tempfile


def add_keep_option(parser):
    parser.add_argument("--keep", action="store_true",
                        help="keep the runs' folders (their path is printed)")


@contextlib.contextmanager
def scratch_folder(prefix, keep):
    scratch = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield scratch
    finally:
        if keep:
            print(f"  runs kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
