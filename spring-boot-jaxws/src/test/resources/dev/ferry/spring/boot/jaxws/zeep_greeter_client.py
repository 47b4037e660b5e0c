# Calls the starter's Greeter endpoint from its WSDL with zeep, as a Python user would, and
# prints what it answered as key=value lines for ZeepPeerTest to compare with CXF's client.
import base64
import sys

from zeep import Client

client = Client(sys.argv[1] + "?wsdl")
print("hello=" + client.service.sayHello(name="Ada Lovelace <&>"))
data = bytes(range(256)) * 64
print("echo=" + base64.b64encode(client.service.echo(data=data)).decode("ascii"))
