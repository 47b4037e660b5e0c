"""zeep against the WAR's endpoints: each loaded from the WSDL its endpoint serves.

Usage: zeep_war_client.py BASE_URL USER PASSWORD. Prints key=value lines.
"""
import sys

import zeep
from requests import Session
from requests.auth import HTTPBasicAuth
from zeep.transports import Transport

base, user, password = sys.argv[1:4]

echo = zeep.Client(base + "/echo?wsdl")
blob = bytes(range(256)) * 400  # 100 KiB, sent inline as base64 (zeep does not send MTOM)
reply = echo.service.testDataHandler(name="zeep", attachinfo=blob)
print("echo_name=" + reply.name)
print("echo_same=" + str(reply.attachinfo == blob))

session = Session()
session.auth = HTTPBasicAuth(user, password)
teller = zeep.Client(base + "/teller?wsdl", transport=Transport(session=session))
print("teller=" + teller.service.whoAmI("admin"))
