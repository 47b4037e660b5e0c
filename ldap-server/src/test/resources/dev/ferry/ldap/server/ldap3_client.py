"""Drives a Ferry LDAP server with Python's ldap3 and prints what happened, one
"key=json value" line per step.

Usage: ldap3_client.py HOST PORT CA_PEM BASE ADMIN_DN ADMIN_PASSWORD
"""
import json
import ssl
import sys

from ldap3 import ALL, BASE, MODIFY_ADD, MODIFY_REPLACE, SUBTREE, Connection, Server, Tls

host, port, ca, base, admin, password = sys.argv[1:7]
people = "ou=people," + base
out = {}

server = Server(host, port=int(port), get_info=ALL,
                tls=Tls(ca_certs_file=ca, validate=ssl.CERT_REQUIRED))
c = Connection(server, admin, password, raise_exceptions=False)
c.open()
out["start_tls"] = c.start_tls()
out["bind"] = c.bind()
out["naming_contexts"] = [str(n) for n in server.info.naming_contexts]
out["schema_knows_inetOrgPerson"] = "inetOrgPerson" in server.schema.object_classes
out["schema_mail_equality"] = list(server.schema.attribute_types["mail"].equality)
out["who_am_i"] = c.extend.standard.who_am_i()

c.search(base, "(&(objectClass=person)(uid=bjensen))", SUBTREE, attributes=["cn", "mail"])
out["search"] = [{"dn": e.entry_dn, "cn": sorted(e.cn.values), "mail": e.mail.value}
                 for e in c.entries]

dn = "uid=py," + people
out["add"] = c.add(dn, ["inetOrgPerson"], {"uid": "py", "cn": "Py Thon", "sn": "Thon"})
out["add_again"] = [c.add(dn, ["inetOrgPerson"], {"uid": "py", "cn": "x", "sn": "x"}),
                    c.result["result"]]
out["modify"] = c.modify(dn, {"mail": [(MODIFY_ADD, ["py@example.com"])],
                              "sn": [(MODIFY_REPLACE, ["Python"])]})
out["compare_true"] = c.compare(dn, "sn", "PYTHON")
out["compare_false"] = c.compare(dn, "sn", "Java")
out["modify_dn"] = c.modify_dn(dn, "uid=py2")

entries = c.extend.standard.paged_search(base, "(objectClass=*)", SUBTREE,
                                         attributes=["1.1"], paged_size=2, generator=False)
out["paged_count"] = len(entries)

out["password"] = c.extend.standard.modify_password("uid=jdoe," + people, new_password="py-pw")
user = Connection(server, "uid=jdoe," + people, "py-pw", raise_exceptions=False)
out["user_bind"] = user.bind()
user.unbind()

c.search("uid=nobody," + people, "(objectClass=*)", BASE)
out["missing"] = {"result": c.result["result"], "matched": c.result["dn"]}
out["delete"] = c.delete("uid=py2," + people)
c.unbind()
for key, value in out.items():
    print(key + "=" + json.dumps(value, sort_keys=True))
