package io.github.pgadvisorylint.core.source;

import java.io.Reader;
import java.io.StringReader;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The one way the analyzer parses XML (MyBatis mapper files, any XML a front end reads): a StAX reader
 * that reads no DTD, resolves no external entity, expands no entity reference and fetches no schema,
 * so an XXE payload ({@code <!ENTITY x SYSTEM "file:///etc/passwd">}, an external DTD on a web server)
 * is neither expanded nor fetched. Entity references stay unexpanded
 * ({@code ENTITY_REFERENCE} events). Thread-safe: each call makes a new reader.
 */
public final class SafeXml {

    private SafeXml() {
    }

    /**
     * @return a new StAX factory with DTDs and external entities disabled, entity references not
     *     replaced, external DTD and schema access forbidden, namespaces off
     */
    public static XMLInputFactory inputFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        // no resolver may hand back content for a DTD or an entity, whatever the settings above
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external resources are not read: " + systemId);
        });
        for (String p : List.of(XMLConstants.ACCESS_EXTERNAL_DTD, XMLConstants.ACCESS_EXTERNAL_SCHEMA)) {
            try {
                f.setProperty(p, "");
            } catch (IllegalArgumentException e) {
                // not supported by this StAX implementation: SUPPORT_DTD=false already keeps DTDs unread
            }
        }
        return f;
    }

    /**
     * @param xml the document
     * @return a reader over it from {@link #inputFactory()}; the caller closes it
     * @throws XMLStreamException when the reader cannot be created
     */
    public static XMLStreamReader reader(String xml) throws XMLStreamException {
        return reader(new StringReader(xml));
    }

    /**
     * @param xml the document
     * @return a reader over it from {@link #inputFactory()}; the caller closes both
     * @throws XMLStreamException when the reader cannot be created
     */
    public static XMLStreamReader reader(Reader xml) throws XMLStreamException {
        return inputFactory().createXMLStreamReader(xml);
    }
}
