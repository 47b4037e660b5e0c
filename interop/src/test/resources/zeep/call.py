"""Calls one operation with zeep, a client built from the WSDL a service serves.

usage: call.py WSDL_URL OPERATION ARGS_JSON [--wsa] [--service NAME --port NAME]

ARGS_JSON holds the operation's arguments by name; a string "base64:..." is sent as bytes.
Prints one line per leaf of the result, "result.PATH<TAB>VALUE", or of the fault,
"fault.code", "fault.message" and "fault.detail.PATH", with tabs, newlines and backslashes
escaped; bytes are printed as "base64:...", a missing value as "null".
"""
import base64
import json
import sys

import zeep
from zeep.exceptions import Fault
from zeep.helpers import serialize_object
from zeep.wsa import WsAddressingPlugin


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def flatten(prefix, value, out):
    if isinstance(value, dict):
        for key, item in value.items():
            flatten(prefix + "." + key, item, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            flatten("%s[%d]" % (prefix, i), item, out)
    elif isinstance(value, bytes):
        out.append((prefix, "base64:" + base64.b64encode(value).decode("ascii")))
    elif value is None:
        out.append((prefix, "null"))
    elif isinstance(value, bool):
        out.append((prefix, "true" if value else "false"))
    else:
        out.append((prefix, str(value)))


def flatten_xml(prefix, element, out):
    children = list(element)
    name = prefix + "." + element.tag.split("}")[-1]
    if not children:
        out.append((name, element.text or ""))
    for child in children:
        flatten_xml(name, child, out)


def decode(value):
    if isinstance(value, str) and value.startswith("base64:"):
        return base64.b64decode(value[len("base64:"):])
    if isinstance(value, dict):
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def main(argv):
    wsdl, operation, args = argv[1], argv[2], decode(json.loads(argv[3]))
    options = argv[4:]
    plugins = [WsAddressingPlugin()] if "--wsa" in options else []
    client = zeep.Client(wsdl, plugins=plugins)
    if "--service" in options:
        service = client.bind(options[options.index("--service") + 1],
                              options[options.index("--port") + 1])
    else:
        service = client.service
    out = []
    try:
        result = getattr(service, operation)(**args)
        flatten("result", serialize_object(result), out)
    except Fault as fault:
        out.append(("fault.code", str(fault.code)))
        out.append(("fault.message", fault.message or ""))
        if fault.detail is not None:
            for child in fault.detail:
                flatten_xml("fault.detail", child, out)
    for key, value in out:
        print(key + "\t" + escape(value))


if __name__ == "__main__":
    main(sys.argv)
