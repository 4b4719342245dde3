package com.example.notify;

import java.util.List;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

@Component
public class TriggerStartup implements ApplicationRunner {

    private final TriggerSchemaInstaller installer;

    public TriggerStartup(TriggerSchemaInstaller installer) {
        this.installer = installer;
    }

    @Override
    public void run(ApplicationArguments args) {
        for (String table : List.of("orders", "invoices")) {
            installer.installNotifyTrigger(table);
        }
    }
}
