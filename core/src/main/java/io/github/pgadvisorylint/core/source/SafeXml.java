package io.github.pgadvisorylint.core.source;

import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;

/** XML reading that never fetches or expands anything: the scanned project's files are untrusted input. */
public final class SafeXml {

    private SafeXml() {}

    /** @return a new StAX factory that reads no DTD and no external entity, expands no entity, ignores namespaces */
    public static XMLInputFactory inputFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        for (String p : List.of(XMLConstants.ACCESS_EXTERNAL_DTD, XMLConstants.ACCESS_EXTERNAL_SCHEMA)) {
            try {
                f.setProperty(p, "");
            } catch (IllegalArgumentException e) {
                // not supported by this StAX implementation: SUPPORT_DTD=false already keeps DTDs unread
            }
        }
        return f;
    }
}
