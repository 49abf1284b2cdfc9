"""Run folders (analyzer/batch/runs.py, cli/simulate_cmd.py): bounded requests, every
part checked against the manifest, damaged chunks redone, one writer per folder, write
errors answered in one line."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer import BinokelError
from analyzer.batch.runs import MAX_CHUNKS, MAX_DEALS, RunSpec
from cli.main import cli
from tests.batch import default_sigint


def _one_line_error(r, fragment):
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("binokel: error:"), r.output
    assert fragment in lines[0], lines[0]


def test_absurd_n_is_refused_before_anything_is_written(tmp_path):
    """-n 99999999999999999999999999 wrote a manifest, then spun at 100% CPU."""
    out = tmp_path / "run"
    r = CliRunner().invoke(cli, ["simulate", "-n", "99999999999999999999999999", "--out",
                                 str(out), "-q"])
    _one_line_error(r, f"{MAX_DEALS:,} deals at most")
    assert not out.exists()


def test_too_many_chunks_names_the_chunk_size_that_fits():
    with pytest.raises(BinokelError, match="--chunk-size 1,000,000 or more"):
        RunSpec("melds", MAX_DEALS, 1, 1000)
    assert RunSpec("melds", MAX_DEALS, 1, MAX_DEALS // MAX_CHUNKS).n_chunks == MAX_CHUNKS


# --- damaged run folders (issue 9, item 5) -------------------------------------------------

import errno  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from analyzer.batch import runs  # noqa: E402
from analyzer.batch.runs import load_run, part_path, simulate  # noqa: E402

SPEC = RunSpec("melds", 4000, 11, 1000)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    out = tmp_path_factory.mktemp("clean") / "run"
    simulate(out, SPEC, jobs=1)
    return out


def _copy(clean, tmp_path, name="run"):
    dst = tmp_path / name
    shutil.copytree(clean, dst)
    return dst


def _report_error(folder, tmp_path):
    r = CliRunner().invoke(cli, ["report", str(folder), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    return r.output


def _resumed_equals_clean(folder, clean):
    res = simulate(folder, SPEC, jobs=1)
    ref = load_run(clean)
    assert res.complete and res.n_deals == SPEC.n
    assert res.table.equals(ref.table)
    return res


def test_flipped_bytes_are_named_and_resume_redoes_the_chunk(clean, tmp_path):
    run = _copy(clean, tmp_path)
    p = part_path(run, 2)
    data = bytearray(p.read_bytes())
    for k in range(len(data) // 3, len(data) // 3 + 8):
        data[k] ^= 0xFF
    p.write_bytes(bytes(data))
    msg = _report_error(run, tmp_path)
    assert "part-000002.parquet" in msg and ("unreadable" in msg or "checksum" in msg)
    res = _resumed_equals_clean(run, clean)
    assert any("part-000002.parquet" in n and "set aside" in n for n in res.notes)
    assert (run / "parts" / "part-000002.parquet.damaged").exists()  # nothing deleted


def test_a_part_copied_over_another_is_not_double_counted(clean, tmp_path):
    """It was: exit 0, '10 of 10 chunks', chunk 3 counted twice."""
    run = _copy(clean, tmp_path)
    shutil.copyfile(part_path(run, 1), part_path(run, 3))
    msg = _report_error(run, tmp_path)
    assert "part-000003.parquet holds chunk 1, not 3" in msg
    with pytest.raises(BinokelError, match="holds chunk 1, not 3"):
        load_run(run)
    _resumed_equals_clean(run, clean)


def test_a_part_of_another_run_is_refused(clean, tmp_path):
    other = tmp_path / "other"
    simulate(other, RunSpec("melds", 4000, 12, 1000), jobs=1)
    run = _copy(clean, tmp_path)
    shutil.copyfile(part_path(other, 0), part_path(run, 0))
    assert "another run's part" in _report_error(run, tmp_path)
    _resumed_equals_clean(run, clean)


def test_edited_n_chunks_is_caught_and_resume_repairs_the_manifest(clean, tmp_path):
    """A manifest with n_chunks halved reported half a run as complete."""
    run = _copy(clean, tmp_path)
    man = json.loads((run / "manifest.json").read_text())
    man["n_chunks"] = 2
    (run / "manifest.json").write_text(json.dumps(man))
    assert "n_chunks 2" in _report_error(run, tmp_path)
    res = _resumed_equals_clean(run, clean)
    assert any("rewritten" in n for n in res.notes)


@pytest.mark.parametrize("content, fragment", [("[1, 2]", "holds a list"),
                                               ("null", "holds a NoneType"),
                                               ("{not json", "not JSON")])
def test_a_broken_manifest_is_one_line_and_the_valid_parts_stay_usable(clean, tmp_path,
                                                                        content, fragment):
    run = _copy(clean, tmp_path)
    (run / "manifest.json").write_text(content)
    assert fragment in _report_error(run, tmp_path)
    r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--seed", "11", "--chunk-size",
                                 "1000", "--out", str(run), "-q", "-j", "1"])
    assert r.exit_code == 0, r.output
    assert "rewritten, since all 4 parts belong to this run" in r.output
    assert load_run(run).table.equals(load_run(clean).table)


def test_a_note_in_the_folder_does_not_block_repairing_a_lost_manifest(clean, tmp_path):
    """issue 25: a README.txt beside intact parts made simulate refuse ("is not empty and
    holds no run manifest"); it is reported, left alone, and the manifest is rewritten."""
    run = _copy(clean, tmp_path)
    (run / "README.txt").write_text("x")
    (run / "parts" / "notes.md").write_text("y")
    (run / "manifest.json").unlink()
    res = _resumed_equals_clean(run, clean)
    assert any("rewritten, since all 4 parts belong to this run" in n for n in res.notes)
    assert "README.txt is not part of the run: left alone" in res.notes
    assert "parts/notes.md is not part of the run: left alone" in res.notes
    assert (run / "README.txt").read_text() == "x" and (run / "parts" / "notes.md").read_text() == "y"


def test_a_note_among_the_parts_is_neither_counted_nor_refused(clean, tmp_path):
    run = _copy(clean, tmp_path)
    (run / "parts" / ".DS_Store").write_bytes(b"\0\1")
    assert load_run(run).table.equals(load_run(clean).table)
    r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--seed", "11", "--chunk-size", "1000",
                                 "--out", str(run), "-q", "-j", "1"])
    assert r.exit_code == 0, r.output
    assert "parts/.DS_Store is not part of the run: left alone" in r.output
    assert (run / "parts" / ".DS_Store").exists()


def test_a_parquet_file_under_another_name_is_still_a_foreign_part(clean, tmp_path):
    # a file posing as a part is checked (and refused), not waved through as a note
    run = _copy(clean, tmp_path)
    shutil.copyfile(part_path(run, 0), run / "parts" / "part-7.parquet")
    assert "parts/part-7.parquet is not a part of this run" in _report_error(run, tmp_path)
    res = _resumed_equals_clean(run, clean)
    assert (run / "parts" / "part-7.parquet.damaged").exists()
    assert any("part-7.parquet" in n and "set aside" in n for n in res.notes)


def test_a_folder_of_other_files_without_any_run_is_still_refused(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "letter.txt").write_text("x")
    r = CliRunner().invoke(cli, ["simulate", "-n", "10", "--out", str(tmp_path / "docs"), "-q"])
    _one_line_error(r, "is not empty and holds no run manifest")
    assert "letter.txt" in r.output and not (tmp_path / "docs" / "parts").exists()


def test_a_parameter_mismatch_is_said_in_words(clean, tmp_path):
    """issue 25: the message printed a Python dict (the deal policy) and reprs."""
    run = _copy(clean, tmp_path)
    r = CliRunner().invoke(cli, ["simulate", "-n", "200000", "--seed", "11", "--what", "deals",
                                 "--out", str(run), "-q"])
    _one_line_error(r, "holds a run of 4,000 deals of meld census (binokel-48, seed 11, "
                       "chunks of 1,000); you asked for 200,000 deals of played deals")
    assert "differ in what is simulated (--what), the number of deals (-n), the chunk size" in r.output
    assert not any(c in r.output for c in "{}[]") and "None" not in r.output
    r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--seed", "11", "--chunk-size", "1000",
                                 "--rules", "grupp-3", "--out", str(run), "-q"])
    _one_line_error(r, "differ in the game (--rules), and runs are never mixed")
    assert "{" not in r.output
    man = json.loads((run / "manifest.json").read_text())
    man["rules"]["bid_step"] += 5          # same game name, other constants
    (run / "manifest.json").write_text(json.dumps(man))
    with pytest.raises(BinokelError, match=r"differ in the rules of binokel-48 \(in bid_step\)"):
        runs.prepare_run(run, SPEC)


def test_parts_that_is_a_file_is_one_line_for_report_and_simulate(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "parts").write_text("x")
    r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--seed", "11", "--chunk-size",
                                 "1000", "--out", str(run), "-q", "-j", "1"])
    assert r.exit_code == 2 and "parts is a file" in r.output, r.output
    (run / "manifest.json").write_text(json.dumps(SPEC.manifest()))
    assert "is a file, not the folder of parts" in _report_error(run, tmp_path)


def test_a_second_writer_on_the_folder_is_refused(tmp_path):
    """Two simulate processes on one folder ran every chunk twice with no warning."""
    run = tmp_path / "run"
    run.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from filelock import FileLock; "
         f"l = FileLock({str(run / '.lock')!r}); l.acquire(); print('held', flush=True); "
         "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--seed", "11", "--chunk-size",
                                     "1000", "--out", str(run), "-q", "-j", "1"])
        assert r.exit_code == 2 and "being written by another binokel simulate" in r.output
        assert not (run / "parts").exists()
    finally:
        holder.kill()
        holder.wait()
    r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--seed", "11", "--chunk-size",
                                 "1000", "--out", str(run), "-q", "-j", "1"])
    assert r.exit_code == 0, r.output


# --- write errors (item 2) -------------------------------------------------------------------

def test_unwritable_out_is_one_line_with_how_to_resume():
    r = CliRunner().invoke(cli, ["simulate", "-n", "4000", "--out", "/proc/run", "-q"])
    _one_line_error(r, "cannot write the run in /proc/run")
    assert "run the same command again to resume" in r.output


def test_full_disk_says_what_was_saved_and_resume_finishes(clean, tmp_path, monkeypatch):
    run = tmp_path / "run"
    real = runs._write_atomic
    calls = {"n": 0}

    def failing(path, data):
        if path.name.startswith("part-"):
            calls["n"] += 1
            if calls["n"] > 1:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, data)

    monkeypatch.setattr(runs, "_write_atomic", failing)
    args = ["simulate", "-n", "4000", "--seed", "11", "--chunk-size", "1000", "--out",
            str(run), "-q", "-j", "1"]
    r = CliRunner().invoke(cli, args)
    _one_line_error(r, "No space left on device")
    assert "1 of 4 chunks are saved" in r.output
    monkeypatch.setattr(runs, "_write_atomic", real)
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert load_run(run).table.equals(load_run(clean).table)


# --- interrupts (item 6) -----------------------------------------------------------------------

def test_ctrl_c_prints_one_line_and_nothing_after_it(tmp_path):
    run = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "simulate", "-n", "400000",
                             "--what", "deals", "--chunk-size", "5000", "--out", str(run),
                             "-q", "-j", "2"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and runs.saved_chunks(run) < 1 and proc.poll() is None:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    lines = [x for x in err.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and "chunks saved; run the same command again to resume" in lines[0], err
