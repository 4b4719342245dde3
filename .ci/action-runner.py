#!/usr/bin/env python3
"""Runs the composite action of action.yml here, step by step, as a GitHub runner would (for .ci/test-action.sh).

    action-runner.py ACTION_DIR WORKSPACE RESULT_JSON [INPUT=VALUE]...

Inputs are checked against the declared ones (unknown or missing required ones are errors) and get their
defaults. Each step's `if` is evaluated (the expression subset composite actions of this repository use:
inputs, steps.ID.outputs, runner.temp, github.workspace, string literals, == != && || ! and parentheses,
success(), failure(), always()); a step after a failed one runs only when its condition says always() or
failure(). A `run` step runs with `bash --noprofile --norc -eo pipefail`, as GitHub runs `shell: bash`, in
WORKSPACE, with its `env` expanded, GITHUB_ACTION_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE
and RUNNER_TEMP; what it writes to GITHUB_OUTPUT becomes steps.ID.outputs. A `uses` step cannot run here:
it is recorded with its expanded `with`, and two are checked as their actions would check them:
actions/setup-java (distribution and java-version given, and the java on PATH at least that version) and
github/codeql-action/upload-sarif (sarif_file exists and is a SARIF 2.1.0 log). RESULT_JSON receives the
steps (ran, skipped, failed, exit codes, uses) and the action's outputs; the exit code is the failed
step's, else 0.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\)|,)"
                   r"|(?P<num>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_][A-Za-z0-9_.-]*))")


class Expression:
    """A recursive-descent evaluator of the GitHub expression subset described above."""

    def __init__(self, text, context, status):
        self.tokens, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot read expression {text!r} at {pos}")
            kind = m.lastgroup
            self.tokens.append((kind, m.group(kind)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i, self.context, self.status = 0, context, status
        self.uses_status = False

    def value(self):
        result = self.disjunction()
        if self.i != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.i]}")
        return result

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None)

    def take(self, op):
        if self.peek() == ("op", op):
            self.i += 1
            return True
        return False

    def disjunction(self):
        left = self.conjunction()
        while self.take("||"):
            right = self.conjunction()
            left = left if truthy(left) else right
        return left

    def conjunction(self):
        left = self.comparison()
        while self.take("&&"):
            right = self.comparison()
            left = right if truthy(left) else left
        return left

    def comparison(self):
        left = self.unary()
        while True:
            if self.take("=="):
                left = equal(left, self.unary())
            elif self.take("!="):
                left = not equal(left, self.unary())
            else:
                return left

    def unary(self):
        if self.take("!"):
            return not truthy(self.unary())
        if self.take("("):
            inner = self.disjunction()
            if not self.take(")"):
                raise ValueError("missing )")
            return inner
        kind, text = self.peek()
        self.i += 1
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind == "num":
            return float(text)
        if kind != "name":
            raise ValueError(f"unexpected {text!r}")
        if text in ("true", "false"):
            return text == "true"
        if text == "null":
            return None
        if self.take("("):
            if not self.take(")"):
                raise ValueError(f"{text}() takes no argument here")
            self.uses_status = True
            return {"success": self.status == "success", "failure": self.status == "failure",
                    "always": True, "cancelled": False}[text]
        node = self.context
        for part in text.split("."):
            node = node.get(part, "") if isinstance(node, dict) else ""
        return node


def truthy(v):
    return v not in (None, False, 0, 0.0, "")


def equal(a, b):
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    return a == b


def interpolate(text, context, status):
    """A string with ${{ ... }} parts replaced by their values."""
    def one(m):
        v = Expression(m.group(1), context, status).value()
        return "" if v is None else ("true" if v is True else "false" if v is False else str(v))
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))


def condition(text, context, status):
    """Whether a step runs: an implicit success() unless the expression asks for the status itself."""
    if text is None:
        return status == "success"
    text = str(text).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", text, re.S)
    e = Expression(m.group(1) if m else text, context, status)
    v = truthy(e.value())
    return v if e.uses_status else (v and status == "success")


def read_outputs(path):
    """key=value lines and key<<DELIMITER blocks, as GITHUB_OUTPUT holds them."""
    outputs, lines = {}, open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delimiter = line.split("<<", 1)
            body = []
            i += 1
            while lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            outputs[key] = "\n".join(body)
        elif "=" in line:
            key, value = line.split("=", 1)
            outputs[key] = value
        i += 1
    return outputs


def check_setup_java(with_):
    if with_.get("distribution") != "temurin" or not with_.get("java-version"):
        return f"setup-java wants distribution temurin and a java-version, got {with_}"
    run = subprocess.run(["java", "-version"], capture_output=True, text=True)
    m = re.search(r'version "(\d+)', run.stderr)
    if not m or int(m.group(1)) < int(str(with_["java-version"]).split(".")[0]):
        return f"the java here is not {with_['java-version']} or newer: {run.stderr.strip()}"
    return None


def check_upload_sarif(with_, workspace):
    path = os.path.join(workspace, with_.get("sarif_file", ""))
    if not with_.get("sarif_file") or not os.path.isfile(path):
        return f"upload-sarif: no file {with_.get('sarif_file')!r}"
    doc = json.load(open(path, encoding="utf-8"))
    if doc.get("version") != "2.1.0" or not doc.get("runs"):
        return "upload-sarif: not a SARIF 2.1.0 log"
    return None


def main():
    action_dir, workspace, result_path = sys.argv[1:4]
    action = yaml.safe_load(open(os.path.join(action_dir, "action.yml"), encoding="utf-8"))
    if action["runs"]["using"] != "composite":
        sys.exit("action.yml is not a composite action")
    declared = action.get("inputs", {})
    given = dict(arg.split("=", 1) for arg in sys.argv[4:])
    for name in given:
        if name not in declared:
            sys.exit(f"unknown input {name}")
    inputs = {}
    for name, spec in declared.items():
        if name in given:
            inputs[name] = given[name]
        elif spec.get("required") and "default" not in spec:
            sys.exit(f"input {name} is required")
        else:
            inputs[name] = str(spec.get("default", ""))
    temp = tempfile.mkdtemp(prefix="runner-temp-")
    context = {"inputs": inputs, "steps": {}, "runner": {"temp": temp},
               "github": {"workspace": workspace, "action_path": action_dir}}
    status, code, record = "success", 0, []
    summary = os.path.join(temp, "step-summary.md")
    open(summary, "w").close()
    for index, step in enumerate(action["runs"]["steps"]):
        entry = {"name": step.get("name", f"step {index}"), "id": step.get("id")}
        record.append(entry)
        if not condition(step.get("if"), context, status):
            entry["ran"] = False
            continue
        entry["ran"] = True
        outputs = {}
        if "uses" in step:
            with_ = {k: interpolate(v, context, status) for k, v in (step.get("with") or {}).items()}
            entry.update(uses=step["uses"], **{"with": with_})
            problem = None
            if step["uses"].startswith("actions/setup-java@"):
                problem = check_setup_java(with_)
            elif step["uses"].startswith("github/codeql-action/upload-sarif@"):
                problem = check_upload_sarif(with_, workspace)
            else:
                problem = f"no stand-in for {step['uses']}"
            entry["exit"] = 0 if problem is None else 1
            if problem:
                print(f"action-runner: {entry['name']}: {problem}", file=sys.stderr)
        else:
            if step.get("shell") != "bash":
                sys.exit(f"{entry['name']}: run steps must say shell: bash")
            output_file = os.path.join(temp, f"output-{index}")
            open(output_file, "w").close()
            env = dict(os.environ)
            env.update({k: interpolate(v, context, status) for k, v in (step.get("env") or {}).items()})
            env.update(GITHUB_ACTION_PATH=action_dir, GITHUB_OUTPUT=output_file, GITHUB_STEP_SUMMARY=summary,
                       GITHUB_WORKSPACE=workspace, RUNNER_TEMP=temp, GITHUB_ACTIONS="true")
            script = interpolate(step["run"], context, status)
            print(f"action-runner: {entry['name']}: {script}", file=sys.stderr, flush=True)
            done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                  cwd=workspace, env=env)
            entry["exit"] = done.returncode
            outputs = read_outputs(output_file)
        entry["outputs"] = outputs
        if step.get("id"):
            context["steps"][step["id"]] = {"outputs": outputs,
                                            "outcome": "success" if entry["exit"] == 0 else "failure"}
        if entry["exit"] != 0 and status == "success":
            status, code = "failure", entry["exit"]
    action_outputs = {name: interpolate(spec.get("value", ""), context, status)
                      for name, spec in (action.get("outputs") or {}).items()}
    with open(result_path, "w", encoding="utf-8") as out:
        json.dump({"steps": record, "outputs": action_outputs, "exit": code,
                   "step_summary": open(summary, encoding="utf-8").read()}, out, indent=2)
    sys.exit(code)


if __name__ == "__main__":
    main()
